import { useCallback, useEffect, useRef, useState } from 'react';
import { pagesForWindow, pagesToDrop } from '../state/pages.js';
import { messageOf } from './use-service-call.js';

export interface PagedRows<T> {
  rowAt(index: number): T | undefined;
  /** Rows in the whole list; null until the first page answered. */
  total: number | null;
  error: string | null;
}

export type FetchPage<T> = (offset: number, limit: number) => Promise<{ rows: T[]; total: number }>;

/**
 * Rows of a long list, fetched a page at a time around the window [top, top + height) and
 * forgotten when far from it. `source` names the list: a new source starts from nothing.
 */
export function usePagedRows<T>(
  source: string,
  fetchPage: FetchPage<T>,
  top: number,
  height: number,
  options: { pageSize?: number; onTotal?: (total: number) => void } = {},
): PagedRows<T> {
  const pageSize = options.pageSize ?? 100;
  const onTotal = useRef(options.onTotal);
  onTotal.current = options.onTotal;
  const pages = useRef(new Map<number, T[]>());
  const loading = useRef(new Set<number>());
  const sourceRef = useRef(source);
  const [, setVersion] = useState(0);
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (sourceRef.current !== source) {
    sourceRef.current = source;
    pages.current = new Map();
    loading.current = new Set();
  }

  useEffect(() => {
    setTotal(null);
    setError(null);
  }, [source]);

  useEffect(() => {
    const wanted = pagesForWindow(top, height, pageSize, total);
    for (const page of pagesToDrop(pages.current.keys(), wanted)) pages.current.delete(page);
    for (const page of wanted) {
      if (pages.current.has(page) || loading.current.has(page)) continue;
      loading.current.add(page);
      const askedFor = source;
      fetchPage(page * pageSize, pageSize).then(
        (result) => {
          if (sourceRef.current !== askedFor) return;
          loading.current.delete(page);
          pages.current.set(page, result.rows);
          // Told in the same batch as the rows arrive, so the list never draws rows it does not count.
          onTotal.current?.(result.total);
          setTotal(result.total);
          setVersion((version) => version + 1);
        },
        (failure: unknown) => {
          if (sourceRef.current !== askedFor) return;
          loading.current.delete(page);
          setError(messageOf(failure));
        },
      );
    }
  }, [source, top, height, pageSize, total]);

  const rowAt = useCallback((index: number) => pages.current.get(Math.floor(index / pageSize))?.[index % pageSize], [pageSize]);
  return { rowAt, total, error };
}
