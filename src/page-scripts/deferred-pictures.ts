/**
 * Sets the sources of deferred pictures (Picture's `deferred`: carousel slides beside the one in
 * view) once they come into view of their carousel, the nearest `[data-deferred-root]` around
 * them. Until then only the placeholder colour shows: a phone fetches the photo it shows, not
 * the whole gallery. A root that shows everything (the car page's column on a desktop) reveals
 * them all at once, and the browser's own lazy loading takes over.
 */
export function revealDeferredPictures(scope: ParentNode = document): void {
  const observers = new Map<Element, IntersectionObserver>();
  for (const picture of scope.querySelectorAll<HTMLElement>('picture[data-deferred]')) {
    const root = picture.closest('[data-deferred-root]');
    if (!root) {
      reveal(picture);
      continue;
    }
    let observer = observers.get(root);
    if (!observer) {
      observer = new IntersectionObserver(
        (entries, self) => {
          for (const entry of entries) {
            // Some of it shows: a slide merely touching the edge of the view is intersecting too, with nothing in view.
            if (entry.intersectionRatio <= 0) continue;
            reveal(entry.target);
            self.unobserve(entry.target);
          }
        },
        { root, threshold: 0.01 },
      );
      observers.set(root, observer);
    }
    observer.observe(picture);
  }
}

function reveal(picture: Element): void {
  for (const el of picture.querySelectorAll<HTMLElement>('[data-srcset]')) {
    el.setAttribute('srcset', el.dataset.srcset!);
    el.removeAttribute('data-srcset');
  }
  const img = picture.querySelector<HTMLImageElement>('img[data-src]');
  if (img) {
    img.src = img.dataset.src!;
    img.removeAttribute('data-src');
  }
  picture.removeAttribute('data-deferred');
}
