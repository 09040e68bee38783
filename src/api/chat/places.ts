import { MAX_WAYPOINTS } from '../../domain/butler';
import { withoutParticle } from '../../domain/korean';

/** Places a message names: where the trip starts, ends and stops on the way. */
export interface Places {
  origin?: string;
  destination?: string;
  waypoints?: string[];
  /** 경유지 없이 / 경유지 삭제. */
  clearWaypoints?: boolean;
  /** The waypoints were named in passing (코엑스 들러서, 광화문도 들러줘): they add to those agreed. */
  inPassing?: boolean;
}

const ORIGIN_LABEL = '출발(?=\\s*(?:은|는|:)\\s*[^\\s은는:])|출발지|출발\\s*장소|출발\\s*위치|승차\\s*위치|승차\\s*장소|탑승\\s*장소|탑승\\s*위치|탑승지|픽업\\s*장소|픽업\\s*위치|픽업지';
const DEST_LABEL = '도착(?=\\s*(?:은|는|:)\\s*[^\\s은는:])|목적지|도착지|도착\\s*장소|도착\\s*위치|하차\\s*장소|하차\\s*위치|하차지|행선지';
const WP_LABEL = '경유지|경유\\s*장소';
const ANY_LABEL = new RegExp(`(?:${ORIGIN_LABEL}|${DEST_LABEL}|${WP_LABEL})`);

/** Whole words that never are a place (fillers, people, services, trip words). */
const STOP = new Set(
  (
    '저 저는 제가 저희 저희는 우리 우리는 나 내가 그리고 그다음 그다음에 다음에 그리고나서 먼저 일단 좀 다시 혹시 그럼 그러면 네 예 아 음 그냥 ' +
    '때문에 위해 위해서 같이 함께 혼자 손님 고객 부모님 가족 회장님 대표님 사장님 차 차량 차로 차량으로 예약 예약을 픽업 샌딩 마중 배웅 ' +
    '미팅 비즈니스 웨딩 결혼식 출장 골프 행사 의전 투어 여행 관광 정도 쯤 경 오전 오후 아침 저녁 밤 새벽 낮 점심 바로 빨리 천천히 ' +
    '출발 도착 경유 이동 운행 편도 왕복 대절 렌트 기사 기사님 운전 운전기사 쇼퍼 버틀러 여기 거기 어디 어디서 어디로 어디까지 무엇 뭐 ' +
    '중간 중간에 도중 도중에 가는길 가는길에 길에 잠깐 잠시 그럼 아 앗 또 한번 한 번'
  ).split(' '),
);

/** Endings of verbs and particles that close a phrase instead of naming a place. */
const NOT_PLACE_END = /(?:요|다|죠|고|며|면|데|니|까|자|는|은|을|를|께|한테|에게|님|해서|가서|와서|러서|쳐서|려서|아서|어서|여서|고서|한|할|된|인데|인가|줘|거)$/;

function isPlaceToken(tok: string): boolean {
  if (!tok || tok.includes('\u0001')) return false;
  if (STOP.has(tok)) return false;
  if (/^(?:에|에서|까지|로|으로|부터|의|와|과|랑|이랑|하고)$/.test(tok)) return false;
  if (/\d가$/.test(tok)) return true; // 종로3가
  if (/[가-힣](?:이|가)$/.test(tok) && tok.length > 2 && !/(?:타워|센터|빌딩|아파트|호텔|공항|역|터미널)/.test(tok) && !/(?:자이|스카이|하이)$/.test(tok)) return false;
  return !NOT_PLACE_END.test(tok);
}

/** Road names that end in a vowel + 로 (the particle test would cut them). */
const ROAD = /(?:을지|충무|퇴계|마포대|세종대|한강대|대학|종)로$/;

/**
 * Drops a trailing particle (에, 에서, 까지, 으로, 로 after a vowel or ㄹ) from a place. `ro: false`
 * when a marker already took the particle (구로까지 → 구로, never 구).
 */
export function stripParticle(place: string, { ro = true }: { ro?: boolean } = {}): string {
  let p = place.trim().replace(/[\s,.!?~]+$/, '');
  p = p.replace(/(?:이에요|에요|예요|이요|입니다|이야)$/, '').replace(/(?<=으로|로|까지|에서)요$/, '');
  const cut = p.replace(/(?:에서|까지|부터|쪽으로|쪽)$/, '');
  // One particle: 구로까지 is 구로, not 구.
  if (cut !== p) return cut.trim();
  if (!ro) return p.trim();
  if (/으로$/.test(p)) return p.slice(0, -2).trim();
  if (/로$/.test(p) && !ROAD.test(p) && !/\d로$/.test(p)) {
    const prev = p.charCodeAt(p.length - 2) - 0xac00;
    const jong = prev >= 0 && prev < 11172 ? prev % 28 : -1;
    if (jong === 0 || jong === 8) p = p.slice(0, -1); // vowel or ㄹ final: 로 is the particle
  }
  p = p.replace(/(?<=[가-힣]{2})에$/, '');
  return p.trim();
}

const MAX_TOKENS = 5;

/** Places whose name ends in 도 (an island, a province), where 도 is no particle. */
const DO_PLACE = /(?:여의|제주|강화|영종|거제|울릉|안면|남해|경기|강원|충청|전라|경상|충북|충남|전북|전남|경북|경남|무의|대부|선유|노들|오이|덕적|실미|용유)도$/;

/** A waypoint as said before 들러/경유: 광화문도, 남산타워에도, 코엑스를, 병원을 → the place (여의도 stays). */
function waypointWord(tok: string): string {
  let t = tok.replace(/(?<=[가-힣]{2})에도$/, '');
  if (/도도$/.test(t)) t = t.slice(0, -1);
  else if (/(?<=[가-힣A-Za-z0-9]{2})도$/.test(t) && !DO_PLACE.test(t)) t = t.slice(0, -1);
  t = withoutParticle(t, '을/를');
  return stripParticle(t);
}

/** The place at the end of a chunk: trailing words that look like a place, at most five. */
function tailPlace(chunk: string, mode: 'wp' | 'taken' | 'plain' = 'plain'): string | null {
  const tokens = chunk.trim().split(/\s+/).filter(Boolean);
  const out: string[] = [];
  const ro = mode !== 'taken';
  for (let i = tokens.length - 1; i >= 0 && out.length < MAX_TOKENS; i--) {
    const tok = i === tokens.length - 1 ? (mode === 'wp' ? waypointWord(tokens[i]) : stripParticle(tokens[i], { ro })) : tokens[i];
    if (!isPlaceToken(tok)) break;
    out.unshift(tok);
  }
  return clean(out.join(' '), ro);
}

/** The place at the start of a chunk (after "A에서" or an arrow). */
function headPlace(chunk: string): string | null {
  const tokens = chunk.trim().split(/\s+/).filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < tokens.length && out.length < MAX_TOKENS; i++) {
    const last = i === tokens.length - 1;
    const tok = last || /(?:이에요|예요|이요|입니다|으로|까지|에서)$/.test(tokens[i]) ? stripParticle(tokens[i]) : tokens[i];
    if (!isPlaceToken(tok)) break;
    out.push(tok);
    if (tok !== tokens[i]) break; // a particle closed the place
  }
  return clean(out.join(' '));
}

function clean(place: string, ro = true): string | null {
  // eslint-disable-next-line no-control-regex -- \u0001 marks text already taken by an earlier rule
  const p = stripParticle(place, { ro }).replace(/^[\s\u0001'"“”‘’]+|[\s\u0001'"“”‘’]+$/g, '');
  if (!p || p.length > 100 || /^\d+$/.test(p)) return null;
  return p;
}

/** Several places in one phrase: "코엑스랑 롯데월드", "A, B 그리고 C". */
function splitList(phrase: string): string[] {
  return phrase
    .split(/\s*(?:,|、|\/|그리고|및)\s*|(?<=[가-힣])(?:와|과|랑|이랑|하고)\s+/)
    .map((p) => clean(p))
    .filter((p): p is string => !!p);
}

function labelValue(raw: string): string | null {
  let v = raw;
  const next = v.search(ANY_LABEL);
  if (next > 0) v = v.slice(0, next);
  v = v.replace(/\s*(?:으로|로|도|을|를)?\s*(?:해\s*주|해줘|해요|할게|하겠|바꿔|바꾸|변경|수정|정정|설정|입력|부탁|추가|넣어|포함).*$/, '');
  v = v.replace(/\s*(?:이고|이며|이구요|이랑|이에요|예요|입니다|이요|이야)\s*$/, '');
  return clean(v);
}

type Marker = { type: 'origin' | 'dest' | 'wp' | 'arrow' | 'pickup'; index: number; end: number };

const MARKERS: Array<[Marker['type'], RegExp]> = [
  [
    'wp',
    /(?:에\s*)?(?:잠깐\s*|잠시\s*)?(?:들렀다\s*가|들렀다가|들렸다가|들렀다|들러서|들려서|들르고|들러|들려|들렀|들르|갔다가|갔다\s*가|경유해서|경유하여|경유하고|경유해|경유|거쳐서|거쳐)(?:\s*(?:가\s*)?(?:줘|주세요|주실래요|줄래요|줄래|주시겠어요|주라|요|야\s*해요|야\s*돼요))?/g,
  ],
  ['origin', /에서(?:\s*출발(?:해서|하여|하고|해요|합니다|할게요|할\s*거|해|이고|이에요|예요)?)?|(?:으로|로)?부터|\s+출발(?:해서|하여|하고|해요|합니다|할게요|할\s*거|해|이고|이에요|예요)?/g],
  ['pickup', /(?:에서\s*)?\s+픽업/g],
  ['dest', /까지|(?:으로|로)(?=\s*(?:가|갑|갈|이동|향|모셔|데려|와\s*주|와줘|부탁|보내))|(?:에|으로|로)?\s*도착|(?:으로|로|에)?\s+(?:가요|갑니다|가야|가려|가고|갈게|갈래|가는데|가는|가주세요|가\s*주세요|가줘|가면|이동)/g],
  ['arrow', /\s*(?:→|->|⇒|=>|~>|➡)\s*/g],
];

function markersIn(segment: string): Marker[] {
  const found: Marker[] = [];
  for (const [type, re] of MARKERS) {
    re.lastIndex = 0;
    for (let m = re.exec(segment); m; m = re.exec(segment)) {
      if (!m[0]) {
        re.lastIndex += 1;
        continue;
      }
      const overlaps = found.some((f) => m.index < f.end && f.index < m.index + m[0].length);
      if (!overlaps) found.push({ type, index: m.index, end: m.index + m[0].length });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

/**
 * Places in a message whose dates, times, counts and cars are already masked: labelled
 * (출발지는 …, 목적지: …, 경유지 …), "A에서 B까지", "A에서 출발해서 B로 가요", "A → B → C",
 * "A 들러서", "A 경유". Masked spans and punctuation end a phrase.
 */
export function findPlaces(text: string): Places {
  const out: Places = {};
  let rest = text;

  if (/경유(?:지|\s*장소)?\s*(?:는|은)?\s*(?:없|삭제|빼|제외|취소|안\s*해)/.test(rest)) {
    out.clearWaypoints = true;
    rest = rest.replace(/경유(?:지|\s*장소)?\s*(?:는|은)?\s*(?:없\S*|삭제\S*|빼\S*|제외\S*|취소\S*|안\s*해\S*)/g, (m) => '\u0001'.repeat(m.length));
  }

  const labelled = new RegExp(`(${ORIGIN_LABEL}|${DEST_LABEL}|${WP_LABEL})\\s*(?:는|은|:|=|을|를|으로|로|에)?\\s*([^,.\\n!?\\u0001]+)`, 'g');
  for (let m = labelled.exec(rest); m; m = labelled.exec(rest)) {
    const label = m[1].replace(/\s/g, '');
    // "출발지 김포공항 목적지 여의도": a value ends where the next label starts.
    const next = m[2].search(ANY_LABEL);
    const raw = next > 0 ? m[2].slice(0, next) : m[2];
    const used = m[0].length - (m[2].length - raw.length);
    const value = labelValue(raw);
    if (value) {
      if (new RegExp(`^(?:${WP_LABEL})$`).test(label)) {
        out.waypoints = splitList(value);
        // "경유지로 시청 추가해 주세요" adds to the agreed ones; "경유지는 A랑 B" is the whole list.
        if (/추가|더\s*넣|넣어|포함/.test(raw)) out.inPassing = true;
      }
      else if (label === '출발' || new RegExp(`^(?:${ORIGIN_LABEL})$`).test(label)) out.origin = value;
      else out.destination = value;
    }
    rest = rest.slice(0, m.index) + '\u0001'.repeat(used) + rest.slice(m.index + used);
    labelled.lastIndex = m.index + used;
  }

  // "남산타워, 명동 들러서": a list before a waypoint verb is one phrase, not two clauses.
  // eslint-disable-next-line no-control-regex -- \u0001 marks text already taken by an earlier rule
  rest = rest.replace(/\s*,\s*(?=[^,.!?\n\u0001]*?(?:들러|들려|들렀|들르|경유|거쳐))/g, ' 및 ');
  // "내일오후2시에인천공항에서…": 에 glued to a masked date or time is no part of the place after it.
  // eslint-disable-next-line no-control-regex -- \u0001 marks text already taken by an earlier rule
  rest = rest.replace(/\u0001(?:쯤|경|정도)?에(?!서)/g, '\u0001\u0001');

  const waypoints: string[] = [];
  // eslint-disable-next-line no-control-regex -- \u0001 marks text already taken by an earlier rule
  for (const segment of rest.split(/[\n.!?,;]|\u0001+/)) {
    const markers = markersIn(segment);
    if (!markers.length) continue;
    let prev = 0;
    let lastType: Marker['type'] | null = null;
    let arrowChain = false;
    for (const mk of markers) {
      const chunk = segment.slice(prev, mk.index);
      // 까지, 에서 and the like are the marker's own: what is left is the whole name (구로까지 → 구로).
      const taken = (mk.type === 'dest' || mk.type === 'origin') && /^(?:까지|에서)/.test(segment.slice(mk.index, mk.end));
      const place = tailPlace(chunk, mk.type === 'wp' ? 'wp' : taken ? 'taken' : 'plain');
      if (place) {
        if (mk.type === 'origin' || (mk.type === 'pickup' && place.length >= 3)) out.origin ??= place;
        else if (mk.type === 'dest') out.destination = place;
        else if (mk.type === 'wp') {
          waypoints.push(...splitList(place));
          out.inPassing = true;
        }
        else if (mk.type === 'arrow') {
          if (!arrowChain && !out.origin) out.origin = place;
          else waypoints.push(place);
        }
      }
      if (mk.type === 'arrow') arrowChain = true;
      lastType = mk.type;
      prev = mk.end;
    }
    if (lastType && lastType !== 'dest') {
      const tail = headPlace(segment.slice(prev));
      if (tail) out.destination ??= tail;
    }
  }
  if (waypoints.length) out.waypoints = [...(out.waypoints ?? []), ...waypoints].slice(0, MAX_WAYPOINTS);
  return out;
}
