/**
 * Korean particles after a word that is only known at run time (a field's label, a car's name, a
 * date): 을/를, 은/는, 이/가, 과/와, 으로/로, chosen by the word's last sound instead of "을(를)".
 */
export type Particle = '을/를' | '은/는' | '이/가' | '과/와' | '으로/로';

const HANGUL_FIRST = 0xac00;
const HANGUL_LAST = 0xd7a3;
/** The final consonant ㄹ's index among Hangul syllables' finals. */
const RIEUL = 8;
/** How each digit is read (일, 이, 삼 …): its final consonant, or none. */
const DIGIT_FINAL: Record<string, number> = { '0': 16, '1': RIEUL, '2': 0, '3': 16, '4': 0, '5': 0, '6': 1, '7': RIEUL, '8': RIEUL, '9': 0 };

/** Finals used for Latin endings (only none / ㄹ / another consonant matter to the particles). */
const NIEUN = 4;
const MIEUM = 16;
const IEUNG = 21;
const GIYEOK = 1;

/**
 * How a capital read as a letter ends (S 에스, GT 지티, AMG 에이엠지): L 엘 and R 알 in ㄹ, M 엠 in
 * ㅁ, N 엔 in ㄴ, every other letter's name in a vowel.
 */
const LETTER_FINAL: Record<string, number> = { L: RIEUL, R: RIEUL, M: MIEUM, N: NIEUN };

/**
 * How a Latin word ends as Koreans say it (the spelling in 외래어 표기법's usual forms): Taycan 타이칸
 * and Cayenne 카이엔 in ㄴ, Phantom 팬텀 in ㅁ, Continental 컨티넨탈 in ㄹ, Black 블랙 in ㄱ, and the
 * rest in a vowel: Roma 로마, Carrera 카레라, G-Class 클래스, Ghost 고스트, Spyder 스파이더, Stradale 스트라달레.
 */
function latinFinal(word: string): number {
  const w = word.toLowerCase();
  if (w.endsWith('ng')) return IEUNG;
  if (/(m|me)$/.test(w)) return MIEUM;
  if (/(n|ne)$/.test(w)) return NIEUN;
  // Final -le is read the Italian way, as the names are: Stradale 스트라달레.
  if (w.endsWith('l')) return RIEUL;
  if (w.endsWith('k')) return GIYEOK;
  return 0;
}

/** The final consonant of the word's last sound (0 = none); a Latin name is read as Koreans say it. */
function finalOf(word: string): number | null {
  const trimmed = word.replace(/[\s)\]}'"”’.,!?·]+$/u, '');
  const last = trimmed.at(-1);
  if (!last) return null;
  const code = last.charCodeAt(0);
  if (code >= HANGUL_FIRST && code <= HANGUL_LAST) return (code - HANGUL_FIRST) % 28;
  if (last in DIGIT_FINAL) return DIGIT_FINAL[last];
  const token = /[A-Za-z]+$/.exec(trimmed)?.[0];
  if (!token) return null;
  // An acronym or a single capital (911 Carrera S, Continental GT, AMG) is read letter by letter.
  if (token === token.toUpperCase() && token.length <= 4) return LETTER_FINAL[last] ?? 0;
  return latinFinal(token);
}

/**
 * `word` followed by the particle its last sound takes: 이미지 설명을, 차량 번호를, 서울로, 인천으로,
 * 911 Carrera S를, Porsche Taycan을. Both forms (을(를)) only when nothing tells (an emoji, a symbol).
 */
export function withParticle(word: string, particle: Particle): string {
  const [after, afterVowel] = particle.split('/');
  const final = finalOf(word);
  if (final === null) return `${word}${after}(${afterVowel})`;
  // 으로 after a consonant other than ㄹ; 로 after a vowel or ㄹ.
  if (particle === '으로/로') return word + (final === 0 || final === RIEUL ? afterVowel : after);
  return word + (final === 0 ? afterVowel : after);
}

/**
 * `word` without a trailing particle of `particle` that agrees with the sound before it, the
 * reverse of withParticle: 코엑스를 → 코엑스, 서울대병원을 → 서울대병원, 잠실로 → 잠실, 판교로
 * → 판교; a syllable the particle would not follow stays part of the word (한옥마을: 을 after 마).
 */
export function withoutParticle(word: string, particle: Particle): string {
  const [after, afterVowel] = particle.split('/');
  for (const p of [after, afterVowel]) {
    if (!word.endsWith(p) || word.length <= p.length) continue;
    const stem = word.slice(0, -p.length);
    const final = finalOf(stem);
    if (final === null) continue;
    const vowelLike = particle === '으로/로' ? final === 0 || final === RIEUL : final === 0;
    if (p === afterVowel ? vowelLike : !vowelLike) return stem;
  }
  return word;
}
