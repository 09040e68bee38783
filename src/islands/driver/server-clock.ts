import { useEffect, useState } from 'react';

/**
 * The server's time on the driver's phone: the `now` of the server's last answer, carried on by the
 * monotonic time elapsed since (performance.now, which setting the phone's clock does not move). A
 * wait shown from it is the wait the server will charge, whatever the phone's clock says.
 */
export interface ServerClock {
  /** The server's `now` of the answer (epoch ms). */
  serverNow: number;
  /** performance.now() when the answer came. */
  at: number;
}

export const serverClockOf = (now: string): ServerClock => ({ serverNow: Date.parse(now), at: performance.now() });

const serverTime = (base: ServerClock) => base.serverNow + (performance.now() - base.at);

/** The server's time now (epoch ms), read again every second while mounted. */
export function useServerNow(base: ServerClock): number {
  const [now, setNow] = useState(() => serverTime(base));
  useEffect(() => {
    setNow(serverTime(base));
    const timer = setInterval(() => setNow(serverTime(base)), 1000);
    return () => clearInterval(timer);
  }, [base]);
  return now;
}
