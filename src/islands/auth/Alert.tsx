/** A failure or notice box; `title` holds the spec's fixed text, `detail` the server's Korean message. */
export default function Alert({ title, detail, tone = 'error' }: { title: string; detail?: string | null; tone?: 'error' | 'info' }) {
  const styles = tone === 'error' ? 'border-red-200 bg-red-50 text-red-800' : 'border-line bg-white text-ink';
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded border px-4 py-3 text-sm ${styles}`}>
      <p className="font-semibold">{title}</p>
      {detail && <p className="mt-0.5">{detail}</p>}
    </div>
  );
}
