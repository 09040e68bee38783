/** A value not answered yet: a line of the text's own height, so nothing moves when it arrives. */
export default function Pending({ width = 'w-20' }: { width?: string }) {
  return <span aria-hidden="true" className={`inline-block h-[0.9em] ${width} animate-pulse rounded bg-line align-middle`} />;
}
