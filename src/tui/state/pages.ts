/**
 * Which pages of a long list to hold: the ones under the window and one either side, so
 * scrolling finds its rows ready; pages far away are dropped to keep memory flat.
 */
export function pagesForWindow(top: number, height: number, pageSize: number, total: number | null): number[] {
  const first = Math.max(0, Math.floor((top - pageSize / 2) / pageSize));
  const lastRow = top + height + pageSize / 2;
  const lastPage = Math.floor(lastRow / pageSize);
  const maxPage = total === null ? lastPage : Math.max(0, Math.ceil(total / pageSize) - 1);
  const pages: number[] = [];
  for (let page = first; page <= Math.min(lastPage, maxPage); page += 1) pages.push(page);
  return pages;
}

/** Pages to forget: those further than `keep` pages from the window. */
export function pagesToDrop(held: Iterable<number>, wanted: readonly number[], keep = 4): number[] {
  if (wanted.length === 0) return [];
  const low = Math.min(...wanted) - keep;
  const high = Math.max(...wanted) + keep;
  return [...held].filter((page) => page < low || page > high);
}
