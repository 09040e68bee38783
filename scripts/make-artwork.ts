import { mkdirSync, writeFileSync } from 'node:fs';
import { BRANDS, BUTLER_FLEET, type BodyStyle } from '../src/api/seed/catalogue-data';

/**
 * Draws the bundled catalogue artwork: three studio side views per model (public/cars) and a
 * monogram per brand (public/brands). Vector art made for this project, small and sized.
 * Run: npx tsx scripts/make-artwork.ts
 */
const W = 800;
const H = 450;
const GROUND = 336;

interface Shape {
  body: string;
  glass: string;
  wheels: [number, number];
  r: number;
}

const SHAPES: Record<BodyStyle, Shape> = {
  coupe: {
    body: 'M92 318 L96 292 Q108 268 178 258 L296 244 Q362 192 446 186 Q528 186 590 238 L690 256 Q726 264 728 296 L722 318 Z',
    glass: 'M318 242 Q372 202 444 198 Q512 198 562 238 Z',
    wheels: [214, 604],
    r: 50,
  },
  roadster: {
    body: 'M92 318 L96 292 Q108 270 178 262 L330 250 L372 214 L386 216 L372 248 L600 246 L690 258 Q726 266 728 296 L722 318 Z',
    glass: 'M360 246 L380 218 L386 220 L372 246 Z',
    wheels: [214, 604],
    r: 50,
  },
  sedan: {
    body: 'M82 318 L86 286 Q100 262 170 254 L278 244 Q340 194 420 188 L524 190 Q574 196 614 244 L702 258 Q730 266 730 296 L726 318 Z',
    glass: 'M300 242 Q350 204 420 200 L520 202 Q560 208 590 242 Z',
    wheels: [208, 606],
    r: 50,
  },
  suv: {
    body: 'M86 318 L88 268 Q96 238 166 230 L248 222 L302 160 Q314 148 336 148 L566 148 Q596 150 616 178 L654 226 L704 238 Q730 248 730 282 L726 318 Z',
    glass: 'M270 222 L318 166 Q326 160 340 160 L560 160 Q584 162 598 182 L630 222 Z',
    wheels: [210, 610],
    r: 56,
  },
  van: {
    body: 'M84 318 L86 200 Q88 150 140 146 L640 140 Q690 142 704 190 L722 250 Q732 270 730 296 L726 318 Z',
    glass: 'M120 206 L124 168 Q128 160 144 160 L620 156 Q660 158 672 196 L684 224 Z',
    wheels: [200, 612],
    r: 54,
  },
};

const BACKDROPS = [
  { from: '#f6f4ef', to: '#e4ded2', floor: '#d9d2c4', text: '#8a8170' },
  { from: '#1a1a1d', to: '#2d2d33', floor: '#0f0f11', text: '#8f8a80' },
  { from: '#efe5d2', to: '#d6c29c', floor: '#c7b083', text: '#7a6a4c' },
];

function shade(hex: string, amount: number): string {
  const n = parseInt(hex.slice(1), 16);
  const ch = (shift: number) => Math.max(0, Math.min(255, ((n >> shift) & 255) + amount));
  return `#${[16, 8, 0].map((s) => ch(s).toString(16).padStart(2, '0')).join('')}`;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

function carSvg(label: string, body: BodyStyle, paint: string, variant: number): string {
  const s = SHAPES[body];
  const bg = BACKDROPS[variant];
  const id = `g${variant}`;
  const wheel = (x: number) => `
  <g transform="translate(${x} ${GROUND - s.r + 14})">
    <circle r="${s.r}" fill="#111"/>
    <circle r="${s.r * 0.62}" fill="#9a9a9e"/>
    <circle r="${s.r * 0.5}" fill="#2b2b2e"/>
    ${[0, 72, 144, 216, 288].map((a) => `<rect x="-3" y="${-s.r * 0.5}" width="6" height="${s.r * 0.5}" fill="#b9b9bd" transform="rotate(${a})"/>`).join('')}
    <circle r="${s.r * 0.12}" fill="#d4d4d8"/>
  </g>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escape(label)}">
  <defs>
    <linearGradient id="${id}bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${bg.from}"/><stop offset="1" stop-color="${bg.to}"/></linearGradient>
    <linearGradient id="${id}paint" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${shade(paint, 48)}"/><stop offset=".55" stop-color="${paint}"/><stop offset="1" stop-color="${shade(paint, -40)}"/></linearGradient>
    <radialGradient id="${id}shadow" cx=".5" cy=".5" r=".5"><stop offset="0" stop-color="#000" stop-opacity=".45"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>
  </defs>
  <rect width="${W}" height="${H}" fill="url(#${id}bg)"/>
  <rect y="${GROUND + 14}" width="${W}" height="${H - GROUND - 14}" fill="${bg.floor}" opacity=".55"/>
  <ellipse cx="${W / 2 + 8}" cy="${GROUND + 16}" rx="340" ry="22" fill="url(#${id}shadow)"/>
  <path d="${s.body}" fill="url(#${id}paint)" stroke="${shade(paint, -60)}" stroke-width="2"/>
  <path d="${s.glass}" fill="#1c2530" opacity=".88"/>
  <path d="M120 292 L700 286" stroke="${shade(paint, 70)}" stroke-width="3" opacity=".35"/>
  <rect x="${body === 'van' ? 700 : 690}" y="268" width="26" height="8" rx="4" fill="#fff4c8"/>
  <rect x="88" y="272" width="18" height="8" rx="4" fill="#c0262d"/>
  ${wheel(s.wheels[0])}
  ${wheel(s.wheels[1])}
  <text x="32" y="${H - 26}" font-family="Helvetica, Arial, sans-serif" font-size="18" letter-spacing="4" fill="${bg.text}">${escape(label.toUpperCase())}</text>
</svg>
`;
}

function brandSvg(name: string): string {
  const initials = name.split(/[\s-]+/).map((w) => w[0]).join('').slice(0, 2).toUpperCase();
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200" width="200" height="200" role="img" aria-label="${escape(name)}">
  <rect width="200" height="200" fill="#0b0b0c"/>
  <circle cx="100" cy="88" r="56" fill="none" stroke="#b8955a" stroke-width="3"/>
  <text x="100" y="104" text-anchor="middle" font-family="Georgia, serif" font-size="44" fill="#f7f6f3">${escape(initials)}</text>
  <text x="100" y="176" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-size="15" letter-spacing="3" fill="#b8955a">${escape(name.toUpperCase())}</text>
</svg>
`;
}

mkdirSync('public/cars', { recursive: true });
mkdirSync('public/brands', { recursive: true });
const drawn = new Set<string>();
const models = [
  ...BRANDS.flatMap((b) => b.models.map((m) => ({ slug: m.slug, label: `${b.name} ${m.name}`, body: m.body, paint: m.paint }))),
  ...BUTLER_FLEET.map((f) => ({ slug: f.modelSlug, label: `${f.brand} ${f.model}`, body: f.body, paint: f.paint })),
];
for (const m of models) {
  if (drawn.has(m.slug)) continue;
  drawn.add(m.slug);
  for (const v of [0, 1, 2]) writeFileSync(`public/cars/${m.slug}-${v + 1}.svg`, carSvg(m.label, m.body, m.paint, v));
}
const brandNames = new Set([...BRANDS.map((b) => b.name), ...BUTLER_FLEET.map((f) => f.brand)]);
for (const name of brandNames) {
  const slug = name === 'Mercedes Benz' ? 'mercedes' : name.toLowerCase().replace(/\s+/g, '-');
  writeFileSync(`public/brands/${slug}.svg`, brandSvg(name));
}
console.log(`Drew ${drawn.size * 3} car images and ${brandNames.size} brand marks.`);
