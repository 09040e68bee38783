import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import type { ButlerLegalAnswer } from '../../domain/butler-legal';

/**
 * The legal model the API runs (GET /butlers/legal): what the form asks and names. It starts from
 * the one the page was built with, so the box is drawn at once; the API's answer wins.
 */
export function useButlerLegal(built: ButlerLegalAnswer): ButlerLegalAnswer {
  const [legal, setLegal] = useState<ButlerLegalAnswer>(built);
  useEffect(() => {
    const ctrl = new AbortController();
    void call((o) => client.butlers.legal.$get({}, o), { signal: ctrl.signal }).then((res) => {
      if (ctrl.signal.aborted) return;
      if (res.ok) setLegal(res.data);
      else console.warn('butler legal:', res.error.message);
    });
    return () => ctrl.abort();
  }, []);
  return legal;
}

/** The legal model the API runs, for pages not built with it (null until it answers, or when it fails). */
export function useLegalModel(): ButlerLegalAnswer['model'] | null {
  const [model, setModel] = useState<ButlerLegalAnswer['model'] | null>(null);
  useEffect(() => {
    const ctrl = new AbortController();
    void call((o) => client.butlers.legal.$get({}, o), { signal: ctrl.signal }).then((res) => {
      if (!ctrl.signal.aborted && res.ok) setModel(res.data.model);
    });
    return () => ctrl.abort();
  }, []);
  return model;
}
