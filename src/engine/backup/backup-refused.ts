/**
 * Why a backup was not imported (nothing was written), with the line of the file at fault when
 * there is one. The import runs in one transaction, so a refusal at any line leaves the database
 * as it was.
 */
export class BackupRefused extends Error {
  readonly line: number | null;

  constructor(message: string, line: number | null = null, options?: ErrorOptions) {
    super(line === null ? `${message} Nothing was imported.` : `Line ${line}: ${message} Nothing was imported.`, options);
    this.name = 'BackupRefused';
    this.line = line;
  }
}
