import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { ledgerSpec } from '@testing/engine/call-door';
import { buildModel } from '@/engine/spec/build';
import { buildOpenApiDocument } from './document';
import type { JsonSchema } from './types';

/** The OpenAPI document of a spec with an entity (payment) and a field (account.balance) only its calls write. */
const document = buildOpenApiDocument(buildModel(ledgerSpec));
const schemas = document.components.schemas;

describe('the OpenAPI document of entities and fields only calls write', () => {
  it('documents no create, change or delete of payments, only their reads, transitions and the calls', () => {
    expect(Object.keys(document.paths['/payments']!).sort()).toEqual(['get']);
    expect(Object.keys(document.paths['/payments/{id}']!).sort()).toEqual(['get', 'parameters']);
    expect(Object.keys(document.paths['/payments/{id}/transitions/refund']!)).toContain('post');
    for (const path of ['/accounts/{id}/pay', '/payments/{id}/amend', '/payments/{id}/void'])
      expect(Object.keys(document.paths[path]!), path).toContain('post');
    expect(Object.keys(schemas)).toContain('Payment');
    expect(Object.keys(schemas).filter((name) => /^(New)?Payment(Changes)?$/.test(name))).toEqual(['Payment']);
    expect(schemas.Payment!.description).toContain("Written only by the application's calls and workflow");
  });

  it('keeps the accounts writable but marks the balance read-only and leaves it out of request bodies', () => {
    expect(Object.keys(document.paths['/accounts']!).sort()).toEqual(['get', 'post']);
    const account = schemas.Account!.properties as Record<string, JsonSchema>;
    expect(account.balance).toMatchObject({ readOnly: true });
    expect(account.balance!.description).toContain("Written only by the application's calls");
    expect(account.name!.readOnly).toBeUndefined();
    const bodies = Object.entries(schemas).filter(([name]) => name !== 'Account' && /Account/.test(name));
    expect(bodies.length).toBeGreaterThan(0);
    for (const [name, body] of bodies) expect(Object.keys(body.properties ?? {}), name).not.toContain('balance');
  });

  it('is valid OpenAPI 3.1 with strict JSON Schema 2020-12 components', async () => {
    const result = await new Validator().validate(JSON.parse(JSON.stringify(document)));
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2));
    expect(result.valid).toBe(true);
    const base = 'https://example.invalid/schemas/';
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    addFormats(ajv);
    for (const [name, value] of Object.entries(schemas)) {
      ajv.addSchema({
        ...(JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', `"${base}`)) as object),
        $id: `${base}${name}`,
      });
    }
    for (const name of Object.keys(schemas)) expect(() => ajv.getSchema(`${base}${name}`), name).not.toThrow();
  });
});
