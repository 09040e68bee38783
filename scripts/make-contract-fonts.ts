import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import subsetFont from 'subset-font';
import { CONTRACT_FONT_TEXT } from '../src/domain/contract-font';

/**
 * Makes the contract PDF's fonts (docs/decisions/contract.md): Pretendard Regular and Bold (static
 * TrueType, SIL OFL) cut to printable ASCII, the symbols the contract prints and the 2,350 Hangul
 * syllables of KS X 1001, into src/api/orders/contract-fonts/. Each PDF then embeds only the glyphs
 * it uses (pdf-lib's subsetting). Run once, after changing CONTRACT_FONT_TEXT:
 *   npm pack pretendard@1.3.9 && tar xzf pretendard-1.3.9.tgz     # the upstream package, outside the repo
 *   npx tsx scripts/make-contract-fonts.ts --package ./package
 */
const { values } = parseArgs({ options: { package: { type: 'string' } } });
if (!values.package) throw new Error('--package: the unpacked pretendard@1.3.9 npm package');
const root = fileURLToPath(new URL('..', import.meta.url));
const out = path.join(root, 'src/api/orders/contract-fonts');
for (const weight of ['Regular', 'Bold']) {
  const source = readFileSync(path.join(values.package, `dist/public/static/alternative/Pretendard-${weight}.ttf`));
  const font = await subsetFont(source, CONTRACT_FONT_TEXT, { targetFormat: 'truetype', keepFeatures: ['kern', 'ccmp', 'locl', 'mark', 'mkmk'] });
  writeFileSync(path.join(out, `Pretendard-${weight}.ttf`), font);
  console.log(`Pretendard-${weight}.ttf: ${font.length} bytes`);
}
copyFileSync(path.join(values.package, 'dist/LICENSE.txt'), path.join(out, 'LICENSE.txt'));
