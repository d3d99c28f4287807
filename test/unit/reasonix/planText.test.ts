// The words of extension management (the face's pure module, English): the plan as the modal
// shows it, and a failure naming Reasonix, the subject, the step and what to do next.
import { strict as assert } from 'node:assert';
import { parsePlan, ReasonixError } from '../../../src/host/reasonix';
import { failureText, planDetail, planTitle, stepText } from '../../../src/vscode/manage/planText';

// What Reasonix 1.38.11 printed for `plugin install ./greeter --link --dry-run` .
const DRY_RUN = JSON.stringify({
  actions: [
    {
      action: 'install_plugin_package',
      compatibility: 'full',
      kind: 'plugin',
      mode: 'link',
      name: 'greeter',
      riskLevel: 'high',
      riskReasons: [
        'installs a plugin package that can add skills, commands, hooks, and MCP servers',
        'links a plugin package from a mutable local directory',
        'FULL TRUST: declares a runtime process (${REASONIX_PLUGIN_ROOT}/bin/greeter --x) that runs inside Reasonix',
      ],
      runtime: {
        args: ['--x'],
        capabilities: ['ui', 'interceptors'],
        command: '${REASONIX_PLUGIN_ROOT}/bin/greeter',
        fullTrust: true,
        intercepts: ['tool.before'],
      },
      scope: 'global',
      source: '/ws/greeter',
      status: 'planned',
      target: '/rh/plugins/greeter',
      version: '1.0.0',
    },
  ],
  applied: false,
  ok: true,
  mode: 'link',
  planId: 'hmac-v1:7bc8fbb4802dae5b50fcd32f4d71176f908b691fb52384ab124ea411d6b7f7c6',
  scope: 'global',
  source: './greeter',
  status: 'planned',
});

describe('extension management words', () => {
  it('the plan modal says every risk reason, the runtime command, hook points, capabilities and compatibility', () => {
    const plan = parsePlan(DRY_RUN, 'plan');
    assert.equal(planTitle(plan), 'Install "greeter" 1.0.0 with Reasonix?');
    assert.equal(
      planDetail(plan),
      [
        'greeter 1.0.0 — linked from /ws/greeter',
        'Installs to: /rh/plugins/greeter',
        'Compatibility: full',
        '',
        'Risk: high',
        '  • installs a plugin package that can add skills, commands, hooks, and MCP servers',
        '  • links a plugin package from a mutable local directory',
        '  • FULL TRUST: declares a runtime process (${REASONIX_PLUGIN_ROOT}/bin/greeter --x) that runs inside Reasonix',
        '',
        'Runtime command: ${REASONIX_PLUGIN_ROOT}/bin/greeter --x',
        'Hook points: tool.before',
        'Capabilities: ui, interceptors',
        '',
        'Reasonix plan hmac-v1:7bc8fbb4802dae5b…',
      ].join('\n'),
    );
    assert.match(
      planDetail(plan, undefined, '1.38.11'),
      /\n\nPlanned by Reasonix 1\.38\.11\nReasonix plan hmac-v1:7bc8fbb4802dae5b…$/,
    );
  });

  it('a failure names Reasonix, the subject, the step, Reasonix’s words and what to do next', () => {
    const e = new ReasonixError(
      'plan',
      'refused',
      'Reasonix refused to plan the install of /ws/hello',
      'install_source: no installable manifest',
    );
    assert.equal(
      failureText('/ws/hello', e),
      'Reasonix failed while planning the install (/ws/hello): Reasonix refused to plan the install of /ws/hello — install_source: no installable manifest. Fix what Reasonix names, then try again.',
    );
    const t = new ReasonixError('install', 'timeout', 'Reasonix did not finish within 60 s and was stopped');
    assert.match(
      failureText('greeter', t),
      /^Reasonix failed while installing \(greeter\): .* Check that Reasonix answers in a terminal/,
    );
    const m = new ReasonixError(
      'find',
      'missing',
      'no reasonix executable on PATH and the reasonix.path setting is empty',
    );
    assert.match(failureText('greeter', m), /Install Reasonix \(npm install -g reasonix\) or set reasonix\.path/);
    for (const step of [
      'find',
      'version',
      'plan',
      'install',
      'verify',
      'enable',
      'disable',
      'remove',
      'show',
      'doctor',
      'migrate',
      'list',
    ] as const)
      assert.ok(stepText(step).length > 0, step);
  });

  it('a JSON answer without a plan is an output failure', () => {
    assert.throws(
      () => parsePlan('{"ok":true}', 'plan'),
      (e: unknown) => e instanceof ReasonixError && e.kind === 'output' && e.step === 'plan',
    );
  });
});
