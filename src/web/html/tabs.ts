/**
 * Tab panels for the HTML reducer: the labels of a tab list (`role="tablist"`, its `role="tab"`
 * elements) are read instead of written, and each following `role="tabpanel"` (hidden ones too:
 * they are hidden only until a click) is written under the next label, in order, as frameworks
 * draw them (Docusaurus, Bootstrap, Radix, Headless UI).
 */
import { cleanChars, WHITESPACE_RUN } from './text';

/** Longest label kept, in characters. */
const MAX_LABEL = 80;

interface TabSet {
  labels: string[];
  next: number;
}

export class TabSets {
  private readonly sets: TabSet[] = [];
  /** Open tab lists; their text is labels, not output. */
  private lists = 0;
  /** Inside a `role="tab"` of an open list. */
  private inTab = 0;
  private label = '';

  /** Inside a tab list: text goes to {@link text}, not to the output. */
  get capturing(): boolean {
    return this.lists > 0;
  }

  startList(): void {
    if (this.lists++ === 0) this.sets.push({ labels: [], next: 0 });
  }

  endList(): void {
    if (this.lists > 0) this.lists--;
  }

  startTab(): void {
    if (this.inTab++ === 0) this.label = '';
  }

  endTab(): void {
    if (this.inTab === 0 || --this.inTab > 0) return;
    const label = cleanChars(this.label).replace(WHITESPACE_RUN, ' ').trim().slice(0, MAX_LABEL);
    this.sets[this.sets.length - 1]?.labels.push(label);
  }

  text(data: string): void {
    if (this.inTab > 0 && this.label.length < MAX_LABEL * 4) this.label += data;
  }

  /** The label of the next panel: the next unused label of the newest tab list that has one left. */
  nextLabel(): string | undefined {
    while (this.sets.length > 0) {
      const set = this.sets[this.sets.length - 1];
      if (set.next < set.labels.length) return set.labels[set.next++] || undefined;
      if (this.lists > 0) return undefined;
      this.sets.pop();
    }
    return undefined;
  }
}
