/** Drag distance (px) that changes a slide: the larger of 40 px and 20% of the slide width. */
function swipeThreshold(slideWidth: number): number {
  return Math.max(40, slideWidth * 0.2);
}

/** Index after moving by `step`, wrapping around within 0..max. */
function wrapIndex(index: number, step: number, max: number): number {
  const size = max + 1;
  return (((index + step) % size) + size) % size;
}

/** The NEW CARS carousel: arrows, dots, wrap-around, and drag or swipe past the threshold. */
export function initCarousel(root: HTMLElement): void {
  const track = root.querySelector<HTMLElement>('[data-track]')!;
  const slides = [...track.children] as HTMLElement[];
  const dots = [...root.querySelectorAll<HTMLButtonElement>('[data-dot]')];
  const viewport = root.querySelector<HTMLElement>('[data-viewport]')!;
  let index = 0;

  const slideWidth = () => slides[0]?.getBoundingClientRect().width || viewport.clientWidth;
  const perView = () => Math.max(1, Math.round(viewport.clientWidth / slideWidth()));
  const maxIndex = () => Math.max(0, slides.length - perView());
  const place = (offset = 0, animate = true) => {
    track.style.transition = animate ? 'transform 450ms cubic-bezier(.2,.7,.2,1)' : 'none';
    track.style.transform = `translate3d(${-index * slideWidth() + offset}px,0,0)`;
  };
  const go = (i: number) => {
    index = Math.min(Math.max(i, 0), maxIndex());
    root.dataset.index = String(index);
    dots.forEach((d, n) => {
      d.hidden = n > maxIndex();
      d.setAttribute('aria-current', n === index ? 'true' : 'false');
    });
    slides.forEach((s, n) => s.setAttribute('aria-hidden', String(n < index || n >= index + perView())));
    slides.forEach((s, n) => s.querySelector('a')?.setAttribute('tabindex', n < index || n >= index + perView() ? '-1' : '0'));
    place();
  };
  const step = (dir: 1 | -1) => go(wrapIndex(index, dir, maxIndex()));

  root.querySelector('[data-prev]')?.addEventListener('click', () => step(-1));
  root.querySelector('[data-next]')?.addEventListener('click', () => step(1));
  dots.forEach((d, n) => d.addEventListener('click', () => go(n)));

  // Pointer drag (mouse) and swipe (touch) share one path.
  let startX = 0;
  let startY = 0;
  let dx = 0;
  let dragging = false;
  let moved = false;
  viewport.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    dragging = true;
    moved = false;
    startX = e.clientX;
    startY = e.clientY;
    dx = 0;
  });
  viewport.addEventListener('pointermove', (e) => {
    if (!dragging) return;
    dx = e.clientX - startX;
    if (!moved && Math.abs(dx) > 5 && Math.abs(dx) > Math.abs(e.clientY - startY)) {
      moved = true;
      viewport.setPointerCapture(e.pointerId);
    }
    if (moved) place(dx, false);
  });
  const end = () => {
    if (!dragging) return;
    dragging = false;
    if (moved && Math.abs(dx) > swipeThreshold(slideWidth())) step(dx < 0 ? 1 : -1);
    else place();
  };
  viewport.addEventListener('pointerup', end);
  viewport.addEventListener('pointercancel', end);
  // A drag is not a click on the card under the pointer.
  viewport.addEventListener('click', (e) => {
    if (moved) {
      e.preventDefault();
      moved = false;
    }
  }, true);
  window.addEventListener('resize', () => go(index));
  go(0);
}
