import { useEffect, useState } from 'react';
import { MAX_HANDOVER_PHOTOS, type HandoverPhotoView } from '../../domain/handover';
import { API_BASE, call, client, requestOptions } from '../../client/api';
import { asUpload } from '../../client/file-upload';
import { UPLOAD_ACCEPT } from '../../domain/upload-types';
import Alert from './Alert';

/**
 * 상태 사진 of one handover: thumbnails for the customer, staff and the driver, and (with
 * `uploadAs`) a picker that sends each chosen photo as the raw body. The images are private (the
 * API answers only with the access token), so each is fetched with the token and shown as a blob
 * URL: an <img src> cannot carry the bearer token. docs/decisions/handover.md.
 */
export default function HandoverPhotos({ handoverId, uploadAs, reloadKey = 0 }: { handoverId: number; uploadAs?: 'admin' | 'driver'; reloadKey?: number }) {
  const [photos, setPhotos] = useState<HandoverPhotoView[] | null>(null);
  const [urls, setUrls] = useState<Record<number, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    void call((o) => client.handovers[':id'].photos.$get({ param: { id: String(handoverId) } }, o)).then((res) => {
      if (!live) return;
      if (res.ok) setPhotos(res.data.photos);
      else setError(res.error.message);
    });
    return () => {
      live = false;
    };
  }, [handoverId, version, reloadKey]);

  useEffect(() => {
    if (!photos?.length) return;
    let live = true;
    const made: string[] = [];
    void (async () => {
      const { headers } = await requestOptions({});
      for (const p of photos) {
        const res = await fetch(`${API_BASE}${p.url}`, { headers: { ...headers, accept: 'image/*' } }).catch(() => null);
        if (!res?.ok || !live) continue;
        const url = URL.createObjectURL(await res.blob());
        made.push(url);
        if (live) setUrls((u) => ({ ...u, [p.id]: url }));
      }
    })();
    return () => {
      live = false;
      made.forEach((u) => URL.revokeObjectURL(u));
    };
  }, [photos]);

  const upload = async (files: FileList | null) => {
    if (!files?.length || !uploadAs) return;
    setBusy(true);
    setError(null);
    for (const file of Array.from(files)) {
      const param = { param: { id: String(handoverId) } };
      const res = await call(
        (o) => (uploadAs === 'admin' ? client.admin.handovers[':id'].photos.$post(param, o) : client.driver.handovers[':id'].photos.$post(param, o)),
        { file: asUpload(file), timeoutMs: 120_000 },
      );
      if (!res.ok) {
        setError(res.error.message);
        break;
      }
    }
    setBusy(false);
    setVersion((v) => v + 1);
  };

  const full = (photos?.length ?? 0) >= MAX_HANDOVER_PHOTOS;
  if (!uploadAs && !photos?.length && !error) return null;
  return (
    <div className="mt-2" data-testid={`handover-photos-${handoverId}`}>
      <p className="text-sm text-muted">상태 사진 {photos ? `${photos.length}장` : ''}</p>
      {!!photos?.length && (
        <ul className="mt-1 flex flex-wrap gap-2">
          {photos.map((p, i) => (
            <li key={p.id}>
              {urls[p.id] ? (
                <a href={urls[p.id]} target="_blank" rel="noopener">
                  <img src={urls[p.id]} alt={`상태 사진 ${i + 1}`} width={96} height={Math.round((96 * p.height) / p.width)} className="h-20 w-24 border border-line object-cover" />
                </a>
              ) : (
                <span className="block h-20 w-24 border border-line bg-line/30" aria-label={`상태 사진 ${i + 1} 불러오는 중`} />
              )}
            </li>
          ))}
        </ul>
      )}
      {uploadAs && (
        <label className="mt-2 inline-flex min-h-11 cursor-pointer items-center border border-line px-3">
          {busy ? '올리는 중...' : full ? `사진은 ${MAX_HANDOVER_PHOTOS}장까지 올릴 수 있습니다` : '상태 사진 올리기'}
          <input
            type="file"
            accept={UPLOAD_ACCEPT}
            multiple
            className="sr-only"
            disabled={busy || full}
            onChange={(e) => {
              void upload(e.target.files);
              e.target.value = '';
            }}
          />
        </label>
      )}
      {error && <Alert className="mt-2">{error}</Alert>}
    </div>
  );
}
