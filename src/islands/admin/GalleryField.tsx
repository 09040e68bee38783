import { useState, type DragEvent } from 'react';
import type { UploadAnswer } from '../../domain/console';
import { PHOTO_URL_PREFIX, type GalleryImage } from '../../domain/photos';
import Picture from '../photos/Picture';
import { adminSend } from './admin-api';
import { fileRefusal, GALLERY_ACCEPT, moveItem } from './gallery-field';

interface Props {
  id: string;
  gallery: GalleryImage[];
  onChange: (gallery: GalleryImage[]) => void;
  /** The server's messages by field (`gallery.2.alt` …). */
  errors: Record<string, string[]>;
}

/** The MIME type of dragged items: a reorder within the list, not files from the desktop. */
const REORDER = 'application/x-luxe-gallery-index';

/**
 * A car's photos: several files at once by drag and drop or the file picker (each encoded by the
 * server as it arrives), reorder by dragging or the arrows, remove, and the Korean alt text every
 * page shows with each photo (required).
 */
export default function GalleryField({ id, gallery, onChange, errors }: Props) {
  const [problems, setProblems] = useState<string[]>([]);
  const [progress, setProgress] = useState<{
    done: number;
    total: number;
  } | null>(null);
  const [dropping, setDropping] = useState(false);

  const upload = async (files: File[]) => {
    if (!files.length) return;
    const refused: string[] = [];
    const added: GalleryImage[] = [];
    setProgress({ done: 0, total: files.length });
    for (const [i, file] of files.entries()) {
      const refusal = fileRefusal(file);
      if (refusal) refused.push(`${file.name}: ${refusal}`);
      else {
        const form = new FormData();
        form.append('file', file);
        const res = await adminSend<UploadAnswer>('POST', '/uploads', form);
        if (res.ok) added.push({ src: res.data.url, alt: '', photo: res.data.photo });
        else refused.push(`${file.name}: ${res.error.message}`);
      }
      setProgress({ done: i + 1, total: files.length });
    }
    setProgress(null);
    setProblems(refused);
    if (added.length) onChange([...gallery, ...added]);
  };

  const onDrop = (e: DragEvent<HTMLElement>, at?: number) => {
    e.preventDefault();
    setDropping(false);
    const from = e.dataTransfer.getData(REORDER);
    if (from !== '') onChange(moveItem(gallery, Number(from), at ?? gallery.length - 1));
    else void upload(Array.from(e.dataTransfer.files));
  };
  const setAlt = (i: number, alt: string) => onChange(gallery.map((image, j) => (j === i ? { ...image, alt } : image)));

  return (
    <div className="space-y-3">
      {gallery.length > 0 && (
        <ol className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label="등록된 사진">
          {gallery.map((image, i) => {
            const altId = `${id}-alt-${i}`;
            const altError = errors[`gallery.${i}.alt`] ?? errors[`gallery.${i}.src`];
            return (
              <li
                key={`${image.src}-${i}`}
                draggable
                onDragStart={(e) => e.dataTransfer.setData(REORDER, String(i))}
                onDragOver={(e) => e.preventDefault()}
                onDrop={(e) => {
                  e.stopPropagation();
                  onDrop(e, i);
                }}
                className="border border-line bg-white p-2"
                data-testid="gallery-item"
              >
                <Picture image={image} base={PHOTO_URL_PREFIX} sizes="240px" eager className="aspect-[4/3] w-full object-cover" />
                <label htmlFor={altId} className="mt-2 block text-xs font-semibold">
                  사진 {i + 1} 설명<span className="text-danger"> *</span>
                </label>
                <input
                  id={altId}
                  value={image.alt}
                  maxLength={200}
                  required
                  aria-invalid={altError || !image.alt.trim() ? true : undefined}
                  placeholder="예: 페라리 로마 정측면"
                  onChange={(e) => setAlt(i, e.target.value)}
                  className="mt-1 w-full border border-line px-2 py-1 text-sm aria-[invalid=true]:border-danger"
                />
                {altError && <p className="mt-1 text-xs text-danger">{altError.join(' ')}</p>}
                <div className="mt-2 flex justify-between text-xs">
                  <button type="button" className="min-h-8 px-2" disabled={i === 0} onClick={() => onChange(moveItem(gallery, i, i - 1))} aria-label={`사진 ${i + 1} 앞으로`}>
                    ←
                  </button>
                  <button type="button" className="min-h-8 px-2 text-danger" onClick={() => onChange(gallery.filter((_, j) => j !== i))} aria-label={`사진 ${i + 1} 삭제`}>
                    삭제
                  </button>
                  <button type="button" className="min-h-8 px-2" disabled={i === gallery.length - 1} onClick={() => onChange(moveItem(gallery, i, i + 1))} aria-label={`사진 ${i + 1} 뒤로`}>
                    →
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setDropping(true);
        }}
        onDragLeave={() => setDropping(false)}
        onDrop={(e) => onDrop(e)}
        className={`flex flex-col items-center gap-2 border border-dashed px-4 py-6 text-center text-sm ${dropping ? 'border-gold bg-gold/10' : 'border-line'}`}
        data-testid="gallery-drop"
      >
        <p>사진 파일을 여기로 끌어다 놓거나</p>
        <label className="btn-outline cursor-pointer">
          파일 선택
          <input
            id={id}
            type="file"
            accept={GALLERY_ACCEPT}
            multiple
            disabled={progress !== null}
            className="sr-only"
            onChange={(e) => {
              void upload(Array.from(e.target.files ?? []));
              e.target.value = '';
            }}
          />
        </label>
        <p className="text-xs text-muted">JPEG, PNG, WebP, AVIF · 한 장에 5MB까지 · 여러 장을 한 번에 올릴 수 있습니다.</p>
      </div>
      {progress && (
        <p role="status" className="text-xs text-muted">
          사진을 올리는 중… ({progress.done}/{progress.total})
        </p>
      )}
      {problems.length > 0 && (
        <ul role="alert" className="space-y-1 text-sm text-danger">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
