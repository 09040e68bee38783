import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import subsetFont from 'subset-font';
import { PDFDocument, PDFHexString, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { ContractDocument } from '../../domain/contract';

/**
 * Lays out a contract document (src/domain/contract.ts) as an A4 PDF in Pretendard: the shipped
 * font files (contract-fonts/, KS X 1001 Hangul, made by scripts/make-contract-fonts.ts) with only
 * the glyphs the document uses embedded. Deterministic: the same document and `id` give the same
 * bytes (creation and modification dates = the order's time, a fixed producer, the file ID derived
 * from `id`, fixed font names), so the stored SHA-256 can be made again (docs/decisions/contract.md).
 */

const FONT_DIR = new URL('./contract-fonts/', import.meta.url);
let fontBytes: { regular: Uint8Array; bold: Uint8Array } | undefined;
const fonts = () => (fontBytes ??= { regular: readFileSync(new URL('Pretendard-Regular.ttf', FONT_DIR)), bold: readFileSync(new URL('Pretendard-Bold.ttf', FONT_DIR)) });

const PAGE = { width: 595.28, height: 841.89, margin: 48 };
const SIZE = { title: 18, subtitle: 9, heading: 11.5, body: 9.5, footer: 7.5 };
const LABEL_WIDTH = 118;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.4, 0.4, 0.43);
const RULE = rgb(0.8, 0.8, 0.82);

/** Breaks text into lines of at most `width` points: at spaces where possible, inside a word (Korean) when it must. */
function wrapText(text: string, font: PDFFont, size: number, width: number): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(/(?<= )/)) {
      if (font.widthOfTextAtSize(line + word, size) <= width) {
        line += word;
        continue;
      }
      if (line.trim()) out.push(line.trimEnd());
      line = '';
      for (const ch of word) {
        if (font.widthOfTextAtSize(line + ch, size) > width && line) {
          out.push(line.trimEnd());
          line = '';
        }
        line += ch;
      }
    }
    out.push(line.trimEnd());
  }
  return out;
}

export interface RenderOptions {
  /** The order's time: the PDF's creation and modification dates. */
  at: Date;
  /** What the file ID is derived from (e.g. `subscription-request:12`). */
  id: string;
}

export async function renderContractPdf(doc: ContractDocument, opts: RenderOptions): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(fontkit);
  // Only the glyphs this document prints, cut by harfbuzz (pdf-lib's own subsetting drops glyphs of
  // this font): every character of the text, the digits and separators the page numbers need.
  const { regular: regularBytes, bold: boldBytes } = fonts();
  const used = (s: string) => [...new Set([...s, ...'0123456789 /'])].sort().join('');
  const bodyText = used([doc.subtitle, doc.footer, ...doc.sections.flatMap((s) => (s.kind === 'lines' ? s.lines.flatMap((l) => [l.label, l.value]) : s.paragraphs))].join(''));
  const headText = used([doc.title, ...doc.sections.map((s) => s.heading)].join(''));
  const cut = (bytes: Uint8Array, text: string) => subsetFont(Buffer.from(bytes), text, { targetFormat: 'truetype', keepFeatures: ['kern'] });
  const regular = await pdf.embedFont(await cut(regularBytes, bodyText), { subset: false, customName: 'LUXECR+Pretendard-Regular' });
  const bold = await pdf.embedFont(await cut(boldBytes, headText), { subset: false, customName: 'LUXECB+Pretendard-Bold' });
  pdf.setTitle(doc.meta.title, { showInWindowTitleBar: true });
  pdf.setSubject(doc.meta.subject);
  pdf.setAuthor(doc.meta.author);
  pdf.setKeywords(doc.meta.keywords);
  pdf.setCreator('LUXE 구독');
  pdf.setProducer('LUXE contract (pdf-lib)');
  pdf.setLanguage('ko-KR');
  pdf.setCreationDate(opts.at);
  pdf.setModificationDate(opts.at);
  const fileId = createHash('sha256').update(`luxe-contract:${opts.id}`).digest('hex').slice(0, 32);
  pdf.context.trailerInfo.ID = pdf.context.obj([PDFHexString.of(fileId), PDFHexString.of(fileId)]);

  const width = PAGE.width - PAGE.margin * 2;
  let page: PDFPage = pdf.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  const newPage = () => {
    page = pdf.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - PAGE.margin;
  };
  const need = (h: number) => {
    if (y - h < PAGE.margin + 24) newPage();
  };
  const text = (s: string, x: number, font: PDFFont, size: number, color = INK) => page.drawText(s, { x, y, font, size, color });

  text(doc.title, PAGE.margin, bold, SIZE.title);
  y -= SIZE.title + 8;
  text(doc.subtitle, PAGE.margin, regular, SIZE.subtitle, MUTED);
  y -= SIZE.subtitle + 14;

  const lead = SIZE.body * 1.55;
  for (const section of doc.sections) {
    need(SIZE.heading + lead * 2 + 10);
    text(section.heading, PAGE.margin, bold, SIZE.heading);
    y -= 6;
    page.drawLine({ start: { x: PAGE.margin, y }, end: { x: PAGE.margin + width, y }, thickness: 0.6, color: RULE });
    y -= lead;
    if (section.kind === 'lines') {
      for (const line of section.lines) {
        const labels = wrapText(line.label, regular, SIZE.body, LABEL_WIDTH - 10);
        const values = wrapText(line.value, regular, SIZE.body, width - LABEL_WIDTH);
        const rows = Math.max(labels.length, values.length);
        need(rows * lead);
        for (let i = 0; i < rows; i++) {
          if (labels[i]) text(labels[i], PAGE.margin, regular, SIZE.body, MUTED);
          if (values[i]) text(values[i], PAGE.margin + LABEL_WIDTH, regular, SIZE.body);
          y -= lead;
        }
      }
    } else {
      for (const p of section.paragraphs) {
        for (const l of wrapText(p, regular, SIZE.body, width)) {
          need(lead);
          text(l, PAGE.margin, regular, SIZE.body);
          y -= lead;
        }
      }
    }
    y -= 10;
  }

  // The foot of every page: the closing line and the page number.
  const pages = pdf.getPages();
  pages.forEach((p, i) => {
    const foot = wrapText(doc.footer, regular, SIZE.footer, width - 50);
    foot.forEach((l, j) => p.drawText(l, { x: PAGE.margin, y: PAGE.margin - 10 - j * (SIZE.footer + 3), font: regular, size: SIZE.footer, color: MUTED }));
    const num = `${i + 1} / ${pages.length}`;
    p.drawText(num, { x: PAGE.margin + width - regular.widthOfTextAtSize(num, SIZE.footer), y: PAGE.margin - 10, font: regular, size: SIZE.footer, color: MUTED });
  });
  return pdf.save({ useObjectStreams: false });
}
