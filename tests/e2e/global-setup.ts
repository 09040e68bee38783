import { kakaoStandInPort, startOAuthStandIn } from './mocks/kakao-oauth';

/**
 * Starts the stand-in Kakao OAuth server the e2e product talks to (KAKAO_AUTH_BASE_URL and
 * KAKAO_API_BASE_URL in playwright.config.ts point at it); stops it after the run.
 */
export default async function globalSetup() {
  const standIn = await startOAuthStandIn(kakaoStandInPort());
  return () => standIn.close();
}
