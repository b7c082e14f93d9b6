/**
 * Bot walls: answers that are a challenge for a browser (a JavaScript check, a CAPTCHA) instead of
 * the page. An automated client cannot pass them, so `fetchPage` reports them as an error of kind
 * `bot_wall`, never as a page.
 */

/** Bytes of an answer's body looked at for a challenge page. */
export const BOT_WALL_SCAN_BYTES = 16 * 1024;

/**
 * Words of challenge pages (Cloudflare, DataDome, PerimeterX, Akamai, AWS WAF, Sucuri, hCaptcha,
 * reCAPTCHA). Judged only on a 403, 429 or 503, where a page about CAPTCHAs is not expected.
 */
const CHALLENGE_WORDS =
  /just a moment|captcha|cf-chl|challenge-platform|attention required|enable javascript and cookies|ddos protection|are you a robot|verify you are human|checking your browser|access denied.{0,80}(?:bot|automated)|request unsuccessful\. incapsula|sucuri website firewall|awswaf|px-captcha|captcha-delivery\.com/i;

/**
 * Marks that only a challenge page carries (the challenge scripts themselves, Cloudflare's
 * interstitial title): strong enough to call a 200 answer a bot wall.
 */
const CHALLENGE_SCRIPTS =
  /\/cdn-cgi\/challenge-platform\/|window\._cf_chl_opt|<title>\s*just a moment\.\.\.\s*<\/title>|captcha-delivery\.com\/(?:captcha|interstitial)|_pxcaptcha|px-captcha|awswaf\.com|aws-waf-token/i;

/**
 * Whether an answer is a bot wall.
 * @param status the HTTP status.
 * @param mitigated the `cf-mitigated` header, if any (`challenge` is Cloudflare's own word for it).
 * @param head the first {@link BOT_WALL_SCAN_BYTES} of the body, decoded as Latin-1 (enough for the
 *   ASCII words looked for); empty when none was read.
 */
export function isBotWall(status: number, mitigated: string | undefined, head: string): boolean {
  if (mitigated?.trim().toLowerCase() === 'challenge') return true;
  if (status === 403 || status === 429 || status === 503) return CHALLENGE_WORDS.test(head);
  return status < 300 && CHALLENGE_SCRIPTS.test(head);
}
