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

/** The final consonant of the word's last sound (0 = none), or null when it cannot be told (a Latin word). */
function finalOf(word: string): number | null {
  const last = word.replace(/[\s)\]}'"”’.,!?·]+$/u, '').at(-1);
  if (!last) return null;
  const code = last.charCodeAt(0);
  if (code >= HANGUL_FIRST && code <= HANGUL_LAST) return (code - HANGUL_FIRST) % 28;
  if (last in DIGIT_FINAL) return DIGIT_FINAL[last];
  return null;
}

/** `word` followed by the particle its last sound takes: 이미지 설명을, 차량 번호를, 서울로, 인천으로. */
export function withParticle(word: string, particle: Particle): string {
  const [after, afterVowel] = particle.split('/');
  const final = finalOf(word);
  if (final === null) return `${word}${after}(${afterVowel})`;
  // 으로 after a consonant other than ㄹ; 로 after a vowel or ㄹ.
  if (particle === '으로/로') return word + (final === 0 || final === RIEUL ? afterVowel : after);
  return word + (final === 0 ? afterVowel : after);
}
