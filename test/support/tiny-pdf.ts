/**
 * A tiny PDF writer for tests: each page is a list of text lines (Helvetica, one `Tj` a line), or
 * `null` for a page with no text layer (a grey image, as a scanner makes). Offsets and the xref
 * table are computed, so the file is valid PDF 1.4 and no fixture file is needed.
 */

/** A PDF string literal: backslash, parentheses escaped; Latin-1 only. */
function literal(s: string): string {
  return `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** The bytes of a PDF with one page per entry of `pages`. */
export function tinyPdf(pages: ReadonlyArray<readonly string[] | null>): Buffer {
  const objects: string[] = [];
  const add = (body: string): number => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add('');
  const tree = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const lines of pages) {
    let content: string;
    let resources: string;
    if (lines === null) {
      // A 2x2 grey image drawn over the page: pixels, no text.
      const image = add(
        '<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 4 >>\nstream\n\x80\x80\x80\x80\nendstream',
      );
      content = 'q 612 0 0 792 0 0 cm /Im1 Do Q';
      resources = `<< /XObject << /Im1 ${image} 0 R >> >>`;
    } else {
      const ops = lines.map((l, i) => `${i === 0 ? '72 720 Td' : '0 -16 Td'} ${literal(l)} Tj`);
      content = `BT /F1 12 Tf ${ops.join(' ')} ET`;
      resources = `<< /Font << /F1 ${font} 0 R >> >>`;
    }
    const stream = add(
      `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    );
    kids.push(
      add(
        `<< /Type /Page /Parent ${tree} 0 R /MediaBox [0 0 612 792] /Contents ${stream} 0 R /Resources ${resources} >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${tree} 0 R >>`;
  objects[tree - 1] =
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
