/**
 * The owner's record of a share page (FilePage.tsx, PastePage.tsx): the server renders share
 * pages anonymously, so the browser asks again as the logged-in user.
 */
import { type Dispatch, type SetStateAction, useEffect, useState } from "react";

/**
 * The record `load` fetches, or null while unknown, refused or not to be asked for (`load`
 * returns null). A new `load` (wrap it in useCallback) asks again; a failure leaves null.
 */
export function useManagedRecord<T>(
  load: () => Promise<T | null> | null,
): [T | null, Dispatch<SetStateAction<T | null>>] {
  const [record, setRecord] = useState<T | null>(null);
  useEffect(() => {
    setRecord(null);
    const request = load();
    if (!request) return;
    let alive = true;
    request.then((r) => alive && setRecord(r)).catch(() => {});
    return () => {
      alive = false;
    };
  }, [load]);
  return [record, setRecord];
}
