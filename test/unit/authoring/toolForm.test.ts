// Call Tool… (issue 42): a tool's input schema as form steps, and each answer read as the value the
// schema asks for (or a sentence saying what to type).
import * as assert from 'node:assert/strict';
import { formSteps, readAnswer } from '../../../src/host/authoring';

describe('authoring: the Call Tool… form from an input schema (issue 42)', () => {
  const schema = {
    type: 'object',
    properties: {
      mode: { enum: ['fast', 'slow'], description: 'How' },
      text: { type: 'string', description: 'What to count' },
      limit: { type: 'integer', default: 10 },
      ratio: { type: 'number' },
      dry: { type: 'boolean' },
      extra: { type: 'object' },
    },
    required: ['text', 'mode'],
  };

  it('asks required properties first, each in the kind its schema says', () => {
    assert.deepEqual(
      formSteps(schema).map((s) => `${s.name}:${s.kind}:${s.required}`),
      [
        'mode:enum:true',
        'text:string:true',
        'limit:integer:false',
        'ratio:number:false',
        'dry:boolean:false',
        'extra:json:false',
      ],
    );
    const [mode, text, limit] = formSteps(schema);
    assert.deepEqual(mode.options, ['"fast"', '"slow"']);
    assert.equal(text.description, 'What to count');
    assert.equal(limit.initial, '10');
    assert.deepEqual(formSteps({ type: 'object' }), []);
  });

  it('reads each answer as its type, leaves out an empty optional one, and says what to type otherwise', () => {
    const steps = Object.fromEntries(formSteps(schema).map((s) => [s.name, s]));
    assert.deepEqual(readAnswer(steps.text, 'a b'), { value: 'a b' });
    assert.deepEqual(readAnswer(steps.text, ''), { value: '' });
    assert.deepEqual(readAnswer(steps.mode, '"slow"'), { value: 'slow' });
    assert.deepEqual(readAnswer(steps.limit, '12'), { value: 12 });
    assert.deepEqual(readAnswer(steps.limit, '1.5'), { error: 'limit must be a whole number' });
    assert.deepEqual(readAnswer(steps.limit, ''), { skip: true });
    assert.deepEqual(readAnswer(steps.ratio, 'x'), { error: 'ratio must be a number' });
    assert.deepEqual(readAnswer(steps.dry, 'false'), { value: false });
    assert.ok('error' in readAnswer(steps.dry, 'maybe'));
    assert.deepEqual(readAnswer(steps.extra, '{"a":[1]}'), { value: { a: [1] } });
    assert.ok('error' in readAnswer(steps.extra, '{a'));
    assert.deepEqual(readAnswer(steps.mode, ''), { error: 'mode is required' });
  });
});
