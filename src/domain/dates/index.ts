/**
 * The shop's one date module: calendar days (YYYY-MM-DD strings), Korean wall-clock times
 * (HH:MM) and instants. The shop keeps Korean time (Asia/Seoul, UTC+9, no daylight saving).
 * Four files behind one import, so a page's bundle carries only the part it uses: Korean time
 * (most pages), calendar arithmetic (the fleet calendar, terms), ISO parsing (the API) and
 * spans in words (9시간 20분, 3분 전).
 */
export * from './korea-time';
export * from './calendar';
export * from './instants';
export * from './durations';
