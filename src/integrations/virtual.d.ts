/** The build snapshot as the pages read it (src/integrations/storefront.ts makes this module). */
declare module 'virtual:luxe/build-snapshot' {
  /** The file the build reads. */
  export const snapshotPath: string;
  /** The car ids whose pages this build renders (an incremental build), or null: every car. */
  export const onlyCars: import('../domain/catalogue').BuildSnapshot['onlyCars'];
  /** The catalogue of the snapshot (read from the file at each call: the content loaders call it once). */
  export function readCatalogue(): Promise<import('../domain/catalogue').CatalogueSnapshot>;
}
