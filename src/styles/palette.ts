/**
 * The colours of global.css's `@theme`, as hex, for what cannot read CSS variables: the
 * theme-color meta, notification emails (mail clients want inline literal colours) and the
 * API's own small pages (sandbox, unsubscribe). tests/unit/styles/palette.test.ts keeps each
 * entry equal to its `--color-*` token; `white` and `mailText` are the only extras.
 */
export const PALETTE = {
  ink: '#0b0b0c',
  paper: '#f7f6f3',
  gold: '#b8955a',
  goldText: '#8a6a35',
  goldDeep: '#7a5a26',
  goldSoft: '#fbf8f1',
  goldGlow: '#b8955a40',
  goldHaze: '#b8955a2e',
  line: '#e5e2dc',
  muted: '#6b6b6b',
  placeholder: '#ece8e0',
  night: '#0e0f13',
  danger: '#8a1c1c',
  dangerSoft: '#fbeeee',
  reserved: '#f3e7e4',
  success: '#2f6b3a',
  successInk: '#1f4d28',
  successSoft: '#eef6ef',
  kakao: '#fee500',
  kakaoInk: '#191919',
  /** Cards of the emails and the API pages. */
  white: '#ffffff',
  /** Body text of the emails, a little softer than ink. */
  mailText: '#2b2b2c',
} as const;
