import { beforeAll, expect, it } from 'vitest';
import crm from '../../examples/crm/ninefold.spec';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { createActor } from '@testing/engine/ops';
import type { Actor } from '@/engine/ground/actor';
import type { RecordData } from '@/engine/ops/types';
import { buildModel } from '@/engine/spec/build';
import { forEachDatabase } from '@testing/engine/store';
import { BOARD_CARD_INPUT, boardTargetInput, type BoardMoveState } from '@/ui/board/board-state';
import { submitBoardMove } from './board-moves';
import type { Redirect } from './record-actions';

/*
 * The board's door as a plain function over a real engine and database: a card posted with the
 * version the viewer saw and its target column; the transition that leads there taken, or why
 * not (and nothing changed); a move that needs a form sent to the record's page; an enum board
 * updated.
 */

const model = buildModel({
  ...crm,
  screens: { ...crm.screens, lists: { ...crm.screens?.lists, company: { ...crm.screens?.lists?.company, board: 'size' } } },
});

function move(record: RecordData, to: string): FormData {
  const data = new FormData();
  data.append(BOARD_CARD_INPUT, `${record.id}:${record.version}`);
  data.append(boardTargetInput(record.id), to);
  return data;
}

function words(result: BoardMoveState | Redirect): BoardMoveState {
  if ('redirectTo' in result) expect.fail(`expected words, got a redirect to ${result.redirectTo}`);
  return result;
}

forEachDatabase('board moves', (database) => {
  let engine: TestEngine;
  let manager: Actor;
  let sam: Actor;
  let sue: Actor;
  let company: RecordData;

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    manager = await createActor(engine.store.db, ['manager'], 'Mia Manager');
    sam = await createActor(engine.store.db, ['sales'], 'Sam Sales');
    sue = await createActor(engine.store.db, ['sales'], 'Sue Sales');
    company = await engine.ops.create(manager, 'company', { name: 'Initech', size: 'small' });
  });

  const newDeal = (owner: Actor, title: string, value: string | null) =>
    engine.ops.create(owner, 'deal', { title, company: company.id, value });
  const stateOf = async (id: number) => (await engine.ops.get(manager, 'deal', id)).record.state;

  it('takes the transition that leads to the column', async () => {
    const deal = await newDeal(sam, 'Printers for Initech', '500');
    expect(words(await submitBoardMove(engine, sam, 'deal', move(deal, 'qualified')))).toEqual({
      message: '“Printers for Initech” moved to Qualified.',
      moved: true,
    });
    expect(await stateOf(deal.id)).toBe('qualified');
  });

  it('refuses a move no transition leads to, or whose guard fails, with why; the deal stays', async () => {
    const deal = await newDeal(sam, 'Staplers for Initech', null);
    expect(words(await submitBoardMove(engine, sam, 'deal', move(deal, 'proposal')))).toEqual({
      message: '“Staplers for Initech” cannot move from Lead to Proposal: no transition of yours leads there.',
      moved: false,
    });
    const qualified = await engine.ops.transition(sam, 'deal', deal.id, 'qualify', { version: deal.version });
    expect(words(await submitBoardMove(engine, sam, 'deal', move(qualified, 'proposal')))).toEqual({
      message: '“Staplers for Initech” was not moved: A deal needs a value before a proposal is sent.',
      moved: false,
    });
    expect(await stateOf(deal.id)).toBe('qualified');
    // A version the viewer did not see: the catalogue's words, nothing changed.
    const seen = await newDeal(sam, 'Pens for Initech', '5');
    await engine.ops.update(sam, 'deal', seen.id, { title: 'More pens for Initech' }, seen.version);
    expect(words(await submitBoardMove(engine, sam, 'deal', move(seen, 'qualified'))).message).toMatch(
      /^“More pens for Initech” was not moved: .*changed/,
    );
    expect(await stateOf(seen.id)).toBe('lead');
  });

  it('sends a move that needs a comment or a confirmation to the record’s page', async () => {
    const deal = await newDeal(sam, 'Desks for Initech', '900');
    expect(await submitBoardMove(engine, sam, 'deal', move(deal, 'lost'))).toEqual({ redirectTo: `/deals/${deal.id}#transitions-heading` });
    expect(await stateOf(deal.id)).toBe('lead');
  });

  it('says so for a card out of the viewer’s sight, and refuses a column the board has not', async () => {
    const deal = await newDeal(sue, 'Chairs for Initech', '100');
    expect(words(await submitBoardMove(engine, sam, 'deal', move(deal, 'qualified')))).toEqual({
      message: 'This deal is no longer on the board.',
      moved: false,
    });
    expect(words(await submitBoardMove(engine, sue, 'deal', move(deal, 'closed'))).message).toBe('Choose the column to move it to.');
    expect(await stateOf(deal.id)).toBe('lead');
  });

  it('updates the field of an enum board, checking the version', async () => {
    expect(words(await submitBoardMove(engine, manager, 'company', move(company, 'large')))).toEqual({
      message: '“Initech” moved to 201–1,000.',
      moved: true,
    });
    const stale = words(await submitBoardMove(engine, manager, 'company', move(company, 'medium')));
    expect(stale.moved).toBe(false);
    expect((await engine.ops.get(manager, 'company', company.id)).record.size).toBe('large');
  });
});
