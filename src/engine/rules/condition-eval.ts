/*
 * The in-memory evaluation of conditions lives in src/engine/condition/evaluate.ts. This name is
 * kept for the access matrix (access/matrix.ts), the independent oracle that is moving out of src.
 */
export { actorContext, evaluateCondition, type ConstantsOf, type EvalContext, type RecordLike } from '../condition/evaluate';
