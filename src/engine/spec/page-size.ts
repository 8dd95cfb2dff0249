/** The most rows one page may hold (a list, an API page, a related section): the spec's checks and the list queries agree on it. */
export const MAX_PAGE_SIZE = 500;

/** Cards a board column shows; its count says how many more the filtered list holds. */
export const BOARD_CARDS = 20;
