import { addMonths, DAY_MS, koreaDayStart, todayInKorea } from './dates';

/**
 * The driver's live position is 개인위치정보 (위치정보법; docs/decisions/legal.md §5). The driver
 * gives two separate, optional consents when accepting the invite (or later on /driver): the
 * 위치기반서비스 이용약관 (the company collects and uses the position during a trip) and the
 * 개인위치정보 제3자 제공 (the trip's customer sees it). Every read of a position by a customer or
 * staff leaves a 위치정보 이용·제공사실 확인자료 row, kept LOCATION_LOG_KEEP_MONTHS, and the driver is
 * told of the reads in one message every LOCATION_NOTICE_DAYS (시행령 제24조's batch notice).
 */

export const LOCATION_CONSENT_KINDS = ['terms', 'third_party'] as const;
export type LocationConsentKind = (typeof LOCATION_CONSENT_KINDS)[number];

/** The current version of each text; a consent is stored with the version it was given to. */
export const LOCATION_CONSENT_VERSION: Record<LocationConsentKind, string> = { terms: '1.0', third_party: '1.0' };

/** How long a 확인자료 row is kept (위치정보법 제16조제2항; 6 months, the period the company states). */
const LOCATION_LOG_KEEP_MONTHS = 6;
/** The batch notice of reads: at most this many days after the first read not yet told (시행령 제24조: 30일). */
const LOCATION_NOTICE_DAYS = 30;
/**
 * Reads by one reader of one trip within this many minutes of the row's last read are one read
 * session: the row's last time and count move, no new row (the trip page asks every 10 s).
 */
export const LOCATION_READ_SESSION_MINUTES = 30;

/** Who read: the trip's customer (제3자 제공) or staff (the company's own 이용). */
export type LocationReaderRole = 'customer' | 'staff';

/** Purposes the log names. */
export const LOCATION_PURPOSE = {
  customer: '예약 고객에게 기사 위치 제공 (운행 중 픽업·도착 확인)',
  staff: '배차 관제 (운행 중 기사 위치 확인)',
} as const satisfies Record<LocationReaderRole, string>;

/** The 위치정보관리책임자 named in the texts (LOCATION_OFFICER_NAME / LOCATION_OFFICER_EMAIL). */
export interface LocationOfficer {
  name: string;
  email: string;
  company: string;
}

export interface LocationConsentText {
  kind: LocationConsentKind;
  version: string;
  title: string;
  text: string;
}

/** The two consent texts the driver reads (optional, each on its own). */
export function locationConsentTexts(officer: LocationOfficer): LocationConsentText[] {
  const who = `${officer.company} 위치정보관리책임자 ${officer.name} (${officer.email})`;
  return [
    {
      kind: 'terms',
      version: LOCATION_CONSENT_VERSION.terms,
      title: '(선택) 위치기반서비스 이용약관 동의',
      text: `1. 수집·이용하는 정보와 방법
회사는 기사님이 기사 운행 화면(/driver)을 열어 둔 동안, 배정된 의전 운행의 출발부터 운행 종료까지만 휴대폰 브라우저의 위치(위도, 경도, 정확도)를 받습니다. 운행마다 마지막 한 곳만 저장하며 이동 경로는 남기지 않습니다.

2. 이용 목적
운행 중 배차 관제(직원의 기사 위치 확인)와, 별도로 동의한 경우 예약 고객에게 기사 위치를 보여주는 데에만 이용합니다.

3. 보유 기간
위치는 운행이 끝나거나 예약이 취소된 뒤 1시간 안에 삭제합니다. 위치정보 이용·제공사실 확인자료(누가, 언제, 어떤 목적으로 위치를 보았는지)는 위치정보법 제16조제2항에 따라 자동으로 기록하고 ${LOCATION_LOG_KEEP_MONTHS}개월간 보관한 뒤 파기합니다.

4. 기사님의 권리
동의하지 않아도 운행 기록(출발·도착·탑승·운행 종료)은 그대로 쓸 수 있으며 위치만 공유되지 않습니다. 기사 운행 화면에서 언제든 동의를 철회할 수 있고, 철회하면 저장된 위치와 확인자료를 바로 파기합니다. 확인자료는 기사 운행 화면에서 언제든 열람할 수 있습니다.

5. 위치정보관리책임자
${who}`,
    },
    {
      kind: 'third_party',
      version: LOCATION_CONSENT_VERSION.third_party,
      title: '(선택) 개인위치정보 제3자 제공 동의',
      text: `1. 제공받는 자
기사님이 배정된 의전 운행을 예약한 고객 (해당 운행의 예약 고객 한 명)

2. 제공 목적과 항목
운행 중 픽업 위치로 오는 기사님과 차량의 위치 확인. 마지막으로 받은 위치(위도, 경도, 시각)만 제공합니다.

3. 제공 기간
출발부터 운행 종료까지. 그 밖의 시간과 다른 고객에게는 제공하지 않습니다.

4. 제공 사실의 통보
위치정보법 제19조제3항과 시행령 제24조에 따라, 제공받는 자·제공 일시·목적을 매회 즉시 알리는 대신 ${LOCATION_NOTICE_DAYS}일마다 모아서 기사님의 이메일과 휴대폰(알림톡)으로 알려드리는 데 동의합니다. 제공 내역은 기사 운행 화면에서 언제든 확인할 수 있습니다.

5. 동의 거부와 철회
동의하지 않거나 철회해도 운행 기록은 그대로 쓸 수 있으며 고객에게 위치가 보이지 않습니다. 철회하면 저장된 위치와 고객 제공 내역을 바로 파기합니다.

6. 위치정보관리책임자
${who}`,
    },
  ];
}

/**
 * The oldest moment a 확인자료 row may have been last read at and still be kept: the start of the
 * Korean day LOCATION_LOG_KEEP_MONTHS calendar months before today (rows older than it are purged).
 */
export function locationLogCutoff(now: Date): Date {
  return koreaDayStart(addMonths(todayInKorea(now), -LOCATION_LOG_KEEP_MONTHS));
}

/** Whether the batch notice is due: a read not yet told happened LOCATION_NOTICE_DAYS or more ago. */
export function locationNoticeDue(oldestUntold: Date | null, now: Date): boolean {
  return oldestUntold !== null && now.getTime() - oldestUntold.getTime() >= LOCATION_NOTICE_DAYS * DAY_MS;
}

/** Whether a read continues a logged read session (same reader and trip, within the session minutes). */
export function continuesReadSession(lastReadAt: Date, now: Date): boolean {
  const gap = now.getTime() - lastReadAt.getTime();
  return gap >= 0 && gap <= LOCATION_READ_SESSION_MINUTES * 60_000;
}

/** A consent as the driver's page shows it (null: not given, or withdrawn). */
interface LocationConsentView {
  version: string;
  agreed_at: string;
}

/** One 확인자료 row as the driver sees it. */
export interface LocationAccessView {
  id: number;
  reader: string;
  reader_role: LocationReaderRole;
  butler_request_id: number;
  purpose: string;
  first_read_at: string;
  last_read_at: string;
  reads: number;
  noticed_at: string | null;
}

/** GET /driver/location: the driver's consents, the texts, the officer and the reads of the last months. */
export interface DriverLocationAnswer {
  consents: Record<LocationConsentKind, LocationConsentView | null>;
  texts: LocationConsentText[];
  officer: { name: string; email: string };
  reads: LocationAccessView[];
}
