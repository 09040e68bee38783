import { describe, expect, it } from 'vitest';
import { proofFileName, proofMatches, proofSizeLabel, proofTypeOf, sniffProofType } from '../../../src/domain/company-proof';

/** 재직·위임 증빙: what a file is by its bytes, the type a picked file is sent as, and the name and size the list shows. */

const bytes = (...parts: (number[] | string)[]) => new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))));

describe('the file by its signature', () => {
  it('knows a PDF (within its first KB), a JPEG, a PNG and a HEIF photo, and nothing else', () => {
    expect(sniffProofType(bytes('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffProofType(bytes('\r\n\r\n%PDF-1.4'))).toBe('application/pdf');
    expect(sniffProofType(bytes([0xff, 0xd8, 0xff, 0xe1], 'Exif'))).toBe('image/jpeg');
    expect(sniffProofType(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('image/png');
    expect(sniffProofType(bytes([0, 0, 0, 0x18], 'ftypmif1', [0, 0, 0, 0]))).toBe('image/heic');
    expect(sniffProofType(bytes([0, 0, 0, 0x18], 'ftypisom'))).toBeNull();
    expect(sniffProofType(bytes('RIFF....WEBPVP8 '))).toBeNull();
    expect(sniffProofType(bytes(' '.repeat(2000), '%PDF-'))).toBeNull();
    expect(sniffProofType(new Uint8Array())).toBeNull();
  });

  it('matches the declared type, HEIC and HEIF being one format', () => {
    const heic = bytes([0, 0, 0, 0x18], 'ftypheic');
    expect(proofMatches('image/heif', heic)).toBe(true);
    expect(proofMatches('image/heic', heic)).toBe(true);
    expect(proofMatches('application/pdf', bytes([0xff, 0xd8, 0xff]))).toBe(false);
  });
});

describe('a picked file', () => {
  it('goes as its own type, else by its extension when the browser gave none', () => {
    expect(proofTypeOf({ type: 'application/pdf', name: 'a.pdf' })).toBe('application/pdf');
    expect(proofTypeOf({ type: '', name: 'IMG_0001.HEIC' })).toBe('image/heic');
    expect(proofTypeOf({ type: 'application/octet-stream', name: '위임장.pdf' })).toBe('application/pdf');
    expect(proofTypeOf({ type: 'text/plain', name: 'a.pdf' })).toBeNull();
    expect(proofTypeOf({ type: '', name: 'memo.txt' })).toBeNull();
  });

  it('is named by its last path part, without control characters, at most 120 characters with its extension', () => {
    expect(proofFileName('C:\\Users\\스캔\\위임장.pdf')).toBe('위임장.pdf');
    expect(proofFileName('a\u0000b\nc.pdf')).toBe('abc.pdf');
    const long = proofFileName(`${'가'.repeat(200)}.pdf`);
    expect(long).toHaveLength(120);
    expect(long.endsWith('.pdf')).toBe(true);
  });

  it('shows its size in B, KB or MB', () => {
    expect(proofSizeLabel(512)).toBe('512 B');
    expect(proofSizeLabel(34 * 1024)).toBe('34 KB');
    expect(proofSizeLabel(2.4 * 1024 * 1024)).toBe('2.4 MB');
  });
});
