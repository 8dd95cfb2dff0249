import { assembleEngine } from './assemble-engine';
import { smtpMailerFromEnv } from './notify/email/smtp-mailer';
import type { Engine } from './engine';
import { NinefoldError } from './errors/ninefold-error';
import { setupCodeAlone, setupCodeMessage } from './identity/setup-code';
import { logLine, printForOperator } from './log';
import { loadSpecFile } from './spec/load-file';
import type { AppModel } from './spec/model';
import type { Settings } from './settings';
import { openStore } from './store/open-store';
import { syncSchema } from './store/schema/sync';
import { ADMIN_ROLE } from './access/policy';
import { SYSTEM_ACTOR } from './identity/system-actor';

export interface OpenOptions {
  /** Apply destructive schema changes (dropping columns or tables) instead of refusing them. */
  readonly allowDestructive?: boolean;
  /**
   * Compare the database's catalogue with the spec even when nf_meta says the last sync was of
   * this very schema (`migrate` does; a server start trusts the record).
   */
  readonly compareCatalogue?: boolean;
  /**
   * While there is no user, make a setup code and log it (setup-code.ts): the server does, the
   * CLI and tests do not (the CLI has `setup-code`).
   */
  readonly announceSetupCode?: boolean;
  /** Use this model instead of loading settings.specPath (tests). */
  readonly model?: AppModel;
}

/**
 * Starts an application: loads and checks the spec, opens the database, brings its schema in
 * line with the spec (refusing lossy changes), and creates the first admin when asked to.
 */
export async function openEngine(settings: Settings, options: OpenOptions = {}): Promise<Engine> {
  const model = options.model ?? (await loadSpecFile(settings.specPath));
  const store = await openStore({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir });
  try {
    await syncSchema(store, model, { allowDestructive: options.allowDestructive ?? false, trustRecorded: !options.compareCatalogue });
    // E-mail leaves by SMTP when SMTP_URL is set (without a mailer no e-mail row is written).
    const engine = assembleEngine(model, store, {
      schedulerSeconds: settings.schedulerSeconds,
      notify: { publicUrl: settings.publicUrl, mailer: smtpMailerFromEnv(process.env) },
      filesDir: settings.filesDir,
    });
    const { identity } = engine;
    if (settings.adminEmail && settings.adminPassword && !(await identity.hasUsers())) {
      await identity
        .createUser(
          SYSTEM_ACTOR,
          { email: settings.adminEmail, password: settings.adminPassword, name: 'Administrator', roles: [ADMIN_ROLE] },
          { onlyIfNoUsers: true },
        )
        .catch((error: unknown) => {
          // Another server created the first user meanwhile: nothing left to bootstrap.
          if (!(error instanceof NinefoldError && error.code === 'FORBIDDEN')) throw error;
        });
    }
    if (options.announceSetupCode && !(await identity.hasUsers())) {
      const code = await identity.issueSetupCode().catch((error: unknown) => {
        // Another server created the first user meanwhile: no code needed.
        if (!(error instanceof NinefoldError && error.code === 'FORBIDDEN')) throw error;
      });
      if (code) {
        logLine('warn', setupCodeMessage(code));
        printForOperator(`\n${setupCodeAlone(code)}\n`);
      }
    }
    return engine;
  } catch (error) {
    await store.close();
    throw error;
  }
}
