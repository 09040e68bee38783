/**
 * The characters the contract PDF's font files hold (scripts/make-contract-fonts.ts): printable
 * ASCII, the symbols the contract prints, and the 2,350 Hangul syllables of KS X 1001 (the common
 * set every Korean name and address in practice uses). A character outside them prints as a blank
 * box; `missingContractGlyphs` finds such characters so the server can log them.
 */
const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
const symbols = '₩·–—…→※「」『』○●■□×';

/** KS X 1001's Hangul rows (0xB0A1–0xC8FE in EUC-KR), read from the standard's order: every syllable there. */
function ksx1001Syllables(): string {
  const dec = new TextDecoder('euc-kr');
  let s = '';
  for (let a = 0xb0; a <= 0xc8; a++) for (let b = 0xa1; b <= 0xfe; b++) s += dec.decode(new Uint8Array([a, b]));
  return [...new Set(s)].filter((c) => c >= '가' && c <= '힣').join('');
}

export const CONTRACT_FONT_TEXT = ascii + symbols + ksx1001Syllables();

/** Characters of `text` the contract font lacks (line breaks aside). */
export function missingContractGlyphs(text: string, have: ReadonlySet<string> = new Set(CONTRACT_FONT_TEXT)): string[] {
  return [...new Set([...text])].filter((c) => c !== '\n' && !have.has(c));
}
