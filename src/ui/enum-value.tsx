import { ownValue } from '@/engine/spec/own-names';
import type { EnumField } from '@/engine/spec/types';
import { Badge } from './badge';
import { enumLabel } from './format';

/**
 * An enum value by its label: as a badge in the value's colour when the spec gives one (the same
 * badge a workflow state is), else as plain text, which keeps uncoloured lists light.
 */
export function EnumValue({ spec, value }: { spec: EnumField; value: string }) {
  const label = enumLabel(spec.labels, value);
  const colour = ownValue(spec.colours, value);
  return colour ? <Badge tone={colour}>{label}</Badge> : <span>{label}</span>;
}
