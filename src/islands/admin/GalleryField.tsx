import { useRef, useState, type DragEvent, type MouseEvent } from 'react';
import { client } from '../../client/api';
import { callWithFile } from '../../client/file-upload';
import { CENTRE, cropOf, PHOTO_URL_PREFIX, type Focus, type GalleryImage, type PhotoRef } from '../../domain/photos';
import { UPLOAD_FORMATS } from '../../domain/upload-types';
import Picture from '../photos/Picture';
import { fileRefusal, focusAt, GALLERY_ACCEPT, moveItem, nudgeFocus } from './gallery-field';

interface Props {
  id: string;
  gallery: GalleryImage[];
  onChange: (gallery: GalleryImage[]) => void;
  /** The server's messages by field (`gallery.2.alt` …). */
  errors: Record<string, string[]>;
}

/** The MIME type of dragged items: a reorder within the list, not files from the desktop. */
const REORDER = 'application/x-luxe-gallery-index';

/** A 25 MB photo on a slow office uplink plus its encode takes longer than the API's usual 30 s. */
const UPLOAD_TIMEOUT_MS = 180_000;

/** The car page's slot (16:9, the widest crop a photo gets): the frame drawn over each photo. */
const PAGE_ASPECT = 16 / 9;

/**
 * A photo whole, with the part the car page shows framed (the rest dimmed) and its focus: a tap
 * sets the focus there, the arrow keys move it (Home: the centre). The crop is never a surprise.
 */
function FocusFrame({ photo, focus, index, onFocus }: { photo: PhotoRef; focus: Focus | undefined; index: number; onFocus: (focus: Focus) => void }) {
  const svg = useRef<SVGSVGElement>(null);
  const { width, height } = photo;
  const at = focus ?? CENTRE;
  const crop = cropOf(width, height, PAGE_ASPECT, at);
  const r = Math.max(width, height) * 0.03;
  const pick = (e: MouseEvent<HTMLButtonElement>) => {
    if (e.detail === 0) return; // Enter or Space: the arrows move the focus
    const toPhoto = svg.current?.getScreenCTM()?.inverse();
    if (!toPhoto) return;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(toPhoto);
    onFocus(focusAt(p.x, p.y, width, height));
  };
  return (
    <button
      type="button"
      onClick={pick}
      onKeyDown={(e) => {
        const next = nudgeFocus(focus, e.key);
        if (!next) return;
        e.preventDefault();
        onFocus(next);
      }}
      aria-label={`사진 ${index + 1} 초점: 가로 ${at.x}%, 세로 ${at.y}%. 사진을 누르거나 화살표 키로 옮깁니다.`}
      className="absolute inset-0 cursor-crosshair focus-visible:outline-2 focus-visible:outline-gold"
      data-testid="gallery-focus"
      data-focus={`${at.x} ${at.y}`}
    >
      <svg ref={svg} viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="xMidYMid meet" className="h-full w-full" aria-hidden="true">
        <path fillRule="evenodd" className="fill-ink/50" d={`M0 0H${width}V${height}H0Z M${crop.x} ${crop.y}h${crop.width}v${crop.height}h${-crop.width}Z`} />
        <rect x={crop.x} y={crop.y} width={crop.width} height={crop.height} fill="none" className="stroke-white" strokeWidth={2} vectorEffect="non-scaling-stroke" data-testid="gallery-crop" />
        <circle cx={(width * at.x) / 100} cy={(height * at.y) / 100} r={r} className="fill-white/35 stroke-white" strokeWidth={2} vectorEffect="non-scaling-stroke" />
      </svg>
    </button>
  );
}

/**
 * A car's photos: several files at once by drag and drop or the file picker (each encoded by the
 * server as it arrives, up to 25 MB each), reorder by dragging or the arrows, remove, the Korean
 * alt text every page shows with each photo (required) and each photo's focus (FocusFrame).
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
        // The file itself as the body (no base64, no form framing): the API counts it as it streams in.
        const res = await callWithFile(client.admin.uploads, file, { timeoutMs: UPLOAD_TIMEOUT_MS });
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
  const setFocus = (i: number, focus: Focus) => onChange(gallery.map((image, j) => (j === i ? { ...image, focus } : image)));

  return (
    <div className="space-y-3">
      {gallery.some((image) => image.photo) && (
        <p className="text-xs text-muted">밝은 틀이 차량 페이지에 보이는 부분입니다. 사진에서 꼭 보여야 할 곳을 누르면 틀이 그쪽으로 옮겨집니다.</p>
      )}
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
                <div className="relative aspect-[4/3] w-full bg-placeholder">
                  {/* The whole photo (no focus applied here): the frame over it shows the crop. */}
                  <Picture image={{ ...image, focus: undefined }} base={PHOTO_URL_PREFIX} sizes="240px" eager className="h-full w-full object-contain" />
                  {image.photo && <FocusFrame photo={image.photo} focus={image.focus} index={i} onFocus={(focus) => setFocus(i, focus)} />}
                </div>
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
        <p className="text-xs text-muted">{UPLOAD_FORMATS} · 한 장에 25MB까지 · 여러 장을 한 번에 올릴 수 있습니다.</p>
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
