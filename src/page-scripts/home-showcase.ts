/** Brand showcase on narrow screens: the active brand rotates every 2 s (spec constants). */
const BRAND_ROTATION_MS = 2000;
const MOBILE_QUERY = '(max-width: 768px)';

/** Starts rotating `[data-brand-slide]` items inside root while the screen is narrow. */
export function initShowcase(root: HTMLElement): void {
  const slides = [...root.querySelectorAll<HTMLElement>('[data-brand-slide]')];
  const dots = [...root.querySelectorAll<HTMLElement>('[data-brand-dot]')];
  if (slides.length < 2) return;
  const media = window.matchMedia(MOBILE_QUERY);
  let active = 0;
  let timer: number | undefined;
  const show = (i: number) => {
    active = i;
    slides.forEach((s, n) => s.toggleAttribute('data-active', n === i));
    dots.forEach((d, n) => d.toggleAttribute('data-active', n === i));
    root.dataset.activeBrand = slides[i].dataset.brandSlide;
  };
  const sync = () => {
    window.clearInterval(timer);
    timer = media.matches ? window.setInterval(() => show((active + 1) % slides.length), BRAND_ROTATION_MS) : undefined;
  };
  show(0);
  sync();
  media.addEventListener('change', sync);
}
