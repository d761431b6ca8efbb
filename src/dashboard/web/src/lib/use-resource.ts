import { useCallback, useEffect, useRef, useState } from 'react';

export interface Resource<T> {
  data?: T;
  error?: Error;
  loading: boolean;
  reload: () => void;
}

/** Loads on mount and whenever `key` changes; `reload()` refetches without blanking what is shown. */
export function useResource<T>(load: () => Promise<T>, key: unknown[] = []): Resource<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const loader = useRef(load);
  loader.current = load;
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    loader.current().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ error: error instanceof Error ? error : new Error(String(error)), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [tick, ...key]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}
