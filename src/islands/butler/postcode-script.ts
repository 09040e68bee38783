import { useEffect, useState } from 'react';
import { loadPostcode } from 'react-daum-postcode';

/** How long the address dialog waits for the postcode script before offering typing by hand instead. */
export const POSTCODE_TIMEOUT_MS = 5_000;

/** loading: spinner; ready: the postcode search can be embedded; failed: the script errored or is too slow. */
export type PostcodeScriptState = 'loading' | 'ready' | 'failed';

// Page-wide, like react-daum-postcode's own cache of the load (a failure is not retried before a reload).
let outcome: 'ready' | 'failed' | null = null;
/** The script once took longer than POSTCODE_TIMEOUT_MS: later opens do not make the user wait again. */
let timedOut = false;
let loading: Promise<void> | null = null;

function load(): Promise<void> {
  loading ??= loadPostcode().then(
    () => {
      outcome = 'ready';
    },
    (e: unknown) => {
      outcome = 'failed';
      console.warn('The postcode script could not load; addresses are typed by hand.', e);
    },
  );
  return loading;
}

function current(): PostcodeScriptState {
  return outcome ?? (timedOut ? 'failed' : 'loading');
}

/**
 * The state of the postcode script for a component that mounts when the address dialog opens.
 * Starts the load; gives up after POSTCODE_TIMEOUT_MS. Once given up, this mount stays on
 * 'failed' even if the script arrives later (the user may be typing); the next open uses it.
 */
export function usePostcodeScript(): PostcodeScriptState {
  const [state, setState] = useState<PostcodeScriptState>(current);
  useEffect(() => {
    if (state !== 'loading') return;
    let live = true;
    const timer = window.setTimeout(() => {
      timedOut = true;
      if (live) setState('failed');
    }, POSTCODE_TIMEOUT_MS);
    void load().then(() => {
      window.clearTimeout(timer);
      if (live) setState(current());
    });
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [state]);
  return state;
}
