/** Asks the filler to top a pool up now (a lease just took one of its machines). */
export interface WarmPoolFillRequests {
  requestFill(pool: string): Promise<void>;
}
