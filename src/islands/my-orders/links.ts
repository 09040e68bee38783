import { CHAT_URL } from '../../config/site';

/** The inquiry chat channel (KakaoTalk), the same the footer links to; opened in a new tab. */
export const CHAT_CHANNEL_URL = CHAT_URL;
