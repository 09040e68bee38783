import { useState } from 'react';
import { adminSend } from './admin-api';

const TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'];
const MAX_BYTES = 5 * 1024 * 1024;

function toBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    // A data: URL; the base64 is what follows the comma.
    reader.onload = () => resolve(typeof reader.result === 'string' ? (reader.result.split(',')[1] ?? '') : '');
    reader.onerror = () => reject(reader.error ?? new Error('이미지 파일을 읽지 못했습니다.'));
    reader.readAsDataURL(file);
  });
}

/** Images of a car: upload (JPEG/PNG/WebP/AVIF up to 5MB), reorder, remove. */
export default function ImagesField({ id, images, onChange }: { id: string; images: string[]; onChange: (images: string[]) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const move = (i: number, by: number) => {
    const next = [...images];
    const [item] = next.splice(i, 1);
    next.splice(i + by, 0, item);
    onChange(next);
  };
  const upload = async (files: FileList | null) => {
    setError(null);
    const added: string[] = [];
    setBusy(true);
    for (const file of Array.from(files ?? [])) {
      if (!TYPES.includes(file.type)) setError('JPEG, PNG, WebP, AVIF 이미지만 올릴 수 있습니다.');
      else if (file.size > MAX_BYTES) setError('이미지는 5MB 이하만 올릴 수 있습니다.');
      else {
        const res = await adminSend<{ url: string }>('POST', '/uploads', { content_type: file.type, data: await toBase64(file) });
        if (res.ok) added.push(res.data.url);
        else setError(res.error.message);
      }
    }
    setBusy(false);
    if (added.length) onChange([...images, ...added]);
  };
  return (
    <div className="space-y-2">
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {images.map((src, i) => (
          <li key={`${src}-${i}`} className="border border-line bg-white p-1">
            <img src={src} alt={`이미지 ${i + 1}`} className="aspect-[4/3] w-full object-cover" loading="lazy" />
            <div className="mt-1 flex justify-between text-xs">
              <button type="button" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`이미지 ${i + 1} 앞으로`}>
                ←
              </button>
              <button type="button" className="text-red-700" onClick={() => onChange(images.filter((_, j) => j !== i))}>
                삭제
              </button>
              <button type="button" disabled={i === images.length - 1} onClick={() => move(i, 1)} aria-label={`이미지 ${i + 1} 뒤로`}>
                →
              </button>
            </div>
          </li>
        ))}
      </ul>
      <input id={id} type="file" accept={TYPES.join(',')} multiple disabled={busy} onChange={(e) => void upload(e.target.files)} className="text-sm" />
      {busy && <p className="text-xs text-muted">올리는 중…</p>}
      {error && <p className="text-sm text-red-700">{error}</p>}
    </div>
  );
}
