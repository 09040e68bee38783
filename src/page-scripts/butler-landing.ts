/** The butler landing's scripts: banner rotation, the portfolio loop and the looping film (no React). */

/** Banner slides advance every 3 s (spec 3 §9). */
const BANNER_INTERVAL_MS = 3000;
/** The portfolio advances one card at this pace. */
const PORTFOLIO_INTERVAL_MS = 4000;
/** Portfolio gap in px and cards in view from 768 px up (spec 3 §9: 3 visible at 768 px or wider, 1 below). */
const PORTFOLIO_GAP = 20;
const WIDE_QUERY = '(min-width: 768px)';

const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)');

/**
 * A timer that ticks while allowed: paused by the user's button, while the pointer or focus is
 * inside, while the tab is hidden, and from the start when motion is reduced.
 */
function autoplay(root: HTMLElement, toggle: HTMLButtonElement | null, interval: number, tick: () => void, labels: [string, string]) {
  let userPaused = reducedMotion().matches;
  let hovering = false;
  let timer: number | undefined;
  const sync = () => {
    window.clearInterval(timer);
    timer = undefined;
    if (!userPaused && !hovering && !document.hidden) timer = window.setInterval(tick, interval);
    root.dataset.playing = String(timer !== undefined);
    if (toggle) {
      toggle.setAttribute('aria-label', userPaused ? labels[1] : labels[0]);
      toggle.dataset.paused = String(userPaused);
    }
  };
  toggle?.addEventListener('click', () => {
    userPaused = !userPaused;
    sync();
  });
  const hold = (on: boolean) => () => {
    hovering = on;
    sync();
  };
  root.addEventListener('pointerenter', hold(true));
  root.addEventListener('pointerleave', hold(false));
  root.addEventListener('focusin', hold(true));
  root.addEventListener('focusout', (e) => !root.contains(e.relatedTarget as Node | null) && hold(false)());
  document.addEventListener('visibilitychange', sync);
  reducedMotion().addEventListener('change', (e) => {
    userPaused = e.matches;
    sync();
  });
  sync();
}

/** The 2-slide banner: cross-fades every 3 s; hidden slides are inert. */
export function initBanner(root: HTMLElement): void {
  const slides = [...root.querySelectorAll<HTMLElement>('[data-slide]')];
  const dots = [...root.querySelectorAll<HTMLButtonElement>('[data-banner-dot]')];
  let index = 0;
  const show = (i: number) => {
    index = (i + slides.length) % slides.length;
    slides.forEach((s, n) => {
      s.toggleAttribute('data-active', n === index);
      s.inert = n !== index;
    });
    dots.forEach((d, n) => d.setAttribute('aria-current', String(n === index)));
    root.dataset.index = String(index);
  };
  dots.forEach((d, n) => d.addEventListener('click', () => show(n)));
  autoplay(root, root.querySelector('[data-banner-toggle]'), BANNER_INTERVAL_MS, () => show(index + 1), ['배너 자동 넘김 정지', '배너 자동 넘김 재생']);
  show(0);
}

/** The portfolio: 3 cards in view from 768 px (1 below), 20 px apart, looping back to the first. */
export function initPortfolio(root: HTMLElement): void {
  const track = root.querySelector<HTMLElement>('[data-track]')!;
  const cards = [...track.children] as HTMLElement[];
  const wide = window.matchMedia(WIDE_QUERY);
  let index = 0;
  const perView = () => (wide.matches ? 3 : 1);
  const maxIndex = () => Math.max(0, cards.length - perView());
  const go = (i: number) => {
    const size = maxIndex() + 1;
    index = ((i % size) + size) % size;
    const step = (cards[0]?.getBoundingClientRect().width ?? 0) + PORTFOLIO_GAP;
    track.style.transform = `translate3d(${-index * step}px,0,0)`;
    cards.forEach((c, n) => c.setAttribute('aria-hidden', String(n < index || n >= index + perView())));
    root.dataset.index = String(index);
  };
  root.querySelector('[data-prev]')?.addEventListener('click', () => go(index - 1));
  root.querySelector('[data-next]')?.addEventListener('click', () => go(index + 1));
  autoplay(root, root.querySelector('[data-portfolio-toggle]'), PORTFOLIO_INTERVAL_MS, () => go(index + 1), ['포트폴리오 자동 넘김 정지', '포트폴리오 자동 넘김 재생']);
  wide.addEventListener('change', () => go(index));
  window.addEventListener('resize', () => go(index));
  go(0);
}

/** The muted looping film plays only while on screen and motion is allowed; its button pauses and resumes it. */
export function initLoopVideo(root: HTMLElement): void {
  const video = root.querySelector('video')!;
  const toggle = root.querySelector<HTMLButtonElement>('[data-video-toggle]');
  let userPaused = reducedMotion().matches;
  let visible = false;
  const sync = () => {
    if (!userPaused && visible) video.play().catch(() => {});
    else video.pause();
    toggle?.setAttribute('aria-label', userPaused ? '영상 재생' : '영상 일시정지');
    if (toggle) toggle.dataset.paused = String(userPaused);
  };
  toggle?.addEventListener('click', () => {
    userPaused = !userPaused;
    sync();
  });
  new IntersectionObserver(([entry]) => {
    visible = entry.isIntersecting;
    sync();
  }).observe(video);
  sync();
}
