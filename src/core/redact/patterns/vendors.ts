import type { SecretRule } from '../rule.js';
import { B64, HEX, sample } from './sample.js';

/**
 * Tokens whose shape names their issuer (`hf_…`, `ghp_…`, `AKIA…`): found anywhere, kept only
 * when they are a placeholder (`hf_xxxx…`). Listed before the generic rules, so an overlap with
 * `HF_TOKEN=…` is named after the vendor.
 */

const START = '(?<![A-Za-z0-9_])';
const END = '(?![A-Za-z0-9])';

function vendor(id: string, description: string, keywords: string[], regex: string, secret: string, context = (s: string) => `token ${s}`): SecretRule {
  return { id, description, keywords, regex, values: 'shape', examples: [{ text: context(secret), secret }] };
}

const PEM_BODY = `${sample('pem1', 64, B64)}\n${sample('pem2', 64, B64)}\n${sample('pem3', 20, B64)}==`;

export const KEY_BLOCKS: readonly SecretRule[] = [
  {
    id: 'private-key',
    description: 'A PEM, OpenSSH or PGP private key block, also one cut short (no END line) or inside JSON (\\n escapes)',
    keywords: ['private key'],
    // The header must be followed by the key (base64, or an encrypted key's headers): a regular
    // expression or a parser that names the header in code is not a key.
    regex: '-----BEGIN[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)?-----(?=[ \\t]{0,4}(?:\\\\r|\\r)?(?:\\\\n|\\n)?[ \\t]{0,4}(?:[A-Za-z0-9+/]|Proc-Type|Comment|Version))(?:[\\s\\S]{0,16384}?-----END[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\\s\\\\:-]{0,16384})',
    values: 'shape',
    examples: [
      { text: `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`, secret: PEM_BODY.slice(0, 40) },
      { text: `"-----BEGIN PRIVATE KEY-----\\n${PEM_BODY.replace(/\n/g, '\\n')}`, secret: PEM_BODY.slice(70, 110) },
    ],
    counterExamples: ['const re = /^-----BEGIN OPENSSH PRIVATE KEY-----(?:\\r\\n|\\n)([\\s\\S]{1,9})$/;'],
  },
  {
    id: 'putty-private-key',
    description: 'The private lines of a PuTTY .ppk key file',
    keywords: ['private-lines'],
    regex: 'Private-Lines: \\d{1,3}\\r?\\n([A-Za-z0-9+/=\\r\\n]{1,8192})',
    secretGroups: [1],
    values: 'shape',
    examples: [{ text: `PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\n${sample('ppk', 44, B64)}\nPrivate-MAC: ab`, secret: sample('ppk', 44, B64) }],
  },
  vendor('age-secret-key', 'An age encryption secret key', ['age-secret-key-1'], 'AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}',
    `AGE-SECRET-KEY-1${sample('age', 58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L')}`),
];

export const VENDOR_TOKENS: readonly SecretRule[] = [
  vendor('anthropic-key', 'Anthropic API and admin keys', ['sk-ant-'], `${START}sk-ant-[A-Za-z0-9]{2,10}-[A-Za-z0-9_-]{20,256}`, `sk-ant-api03-${sample('ant', 93)}AA`),
  vendor('openai-key', 'OpenAI keys (project, service account, admin, legacy) and the sk- keys of OpenAI-compatible services', ['sk-'],
    `${START}sk-(?:proj-|svcacct-|admin-|None-|or-v1-)?[A-Za-z0-9_-]{20,256}`, `sk-proj-${sample('oai', 48)}`),
  vendor('huggingface-token', 'Hugging Face user and organisation tokens', ['hf_', 'api_org_'], `${START}(?:hf_[A-Za-z0-9]{30,256}|api_org_[A-Za-z0-9]{30,64})`, `hf_${sample('hf', 34)}`),
  vendor('github-token', 'GitHub classic, OAuth, user-to-server, server-to-server, refresh and fine-grained tokens',
    ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'], `${START}(?:gh[pousr]_[A-Za-z0-9_]{36,255}|github_pat_[A-Za-z0-9_]{22,255})`, `ghp_${sample('ghp', 36)}`),
  vendor('gitlab-token', 'GitLab personal, deploy, runner, pipeline-trigger, CI job, OAuth, feed and agent tokens',
    ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glcbt-', 'gloas-', 'glft-', 'glimt-', 'glagent-', 'glsoat-', 'glffct-'],
    `${START}gl(?:pat|dt|rt|ptt|cbt|oas|ft|imt|agent|soat|ffct)-[A-Za-z0-9_-]{20,255}`, `glpat-${sample('glpat', 20)}`),
  vendor('aws-access-key-id', 'AWS access key ids (long-lived and temporary)', ['akia', 'asia', 'abia', 'acca', 'a3t'],
    `${START}(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}${END}`, `AKIA${sample('akia', 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`),
  {
    id: 'aws-secret-key',
    description: 'AWS secret access keys and session tokens next to their name (env, INI, JSON, `aws configure set`)',
    keywords: ['secret_access_key', 'secretaccesskey', 'session_token', 'sessiontoken'],
    regex: '(?:aws_secret_access_key|AWS_SECRET_ACCESS_KEY|SecretAccessKey|secretAccessKey|aws_session_token|AWS_SESSION_TOKEN|SessionToken|sessionToken)["\']?(?:[ \\t]{0,4}[:=][ \\t]{0,4}|[ \\t]{1,4})["\']?([A-Za-z0-9/+=]{40,2048})(?![A-Za-z0-9/+=])',
    secretGroups: [1],
    values: 'shape',
    examples: [
      { text: `[default]\naws_secret_access_key = ${sample('aws', 40, B64)}`, secret: sample('aws', 40, B64) },
      { text: `aws configure set aws_secret_access_key ${sample('aws2', 40, B64)}`, secret: sample('aws2', 40, B64) },
    ],
  },
  vendor('google-api-key', 'Google API keys', ['aiza'], `${START}AIza[0-9A-Za-z_-]{35}`, `AIza${sample('aiza', 35)}`),
  vendor('gcp-oauth-client-secret', 'Google OAuth client secrets', ['gocspx-'], `${START}GOCSPX-[A-Za-z0-9_-]{28}`, `GOCSPX-${sample('gocspx', 28)}`),
  vendor('slack-token', 'Slack bot, user, app and configuration tokens', ['xox', 'xapp-'],
    `${START}(?:xox[abposre]-[A-Za-z0-9-]{10,255}|xapp-\\d-[A-Z0-9]{1,16}-\\d{1,16}-[a-z0-9]{1,80})`, `xoxb-${sample('xoxb', 12, HEX)}-${sample('xoxb2', 24)}`),
  vendor('slack-webhook', 'Slack incoming webhooks and workflow triggers', ['hooks.slack.com'],
    'https://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,255}', `https://hooks.slack.com/services/T${sample('sw', 8)}/B${sample('sw2', 8)}/${sample('sw3', 24)}`),
  vendor('discord-webhook', 'Discord webhooks', ['discord'],
    'https://(?:ptb\\.|canary\\.)?discord(?:app)?\\.com/api/webhooks/\\d{1,20}/[A-Za-z0-9_-]{20,128}', `https://discord.com/api/webhooks/1234567890/${sample('dw', 68)}`),
  vendor('stripe-key', 'Stripe secret and restricted keys, webhook signing secrets', ['_live_', '_test_', 'whsec_'],
    `${START}(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,255}|whsec_[A-Za-z0-9]{24,64})`, `sk_live_${sample('stripe', 24)}`),
  vendor('npm-token', 'npm access tokens', ['npm_'], `${START}npm_[A-Za-z0-9]{36}${END}`, `npm_${sample('npm', 36)}`),
  vendor('nvidia-api-key', 'NVIDIA NGC / build.nvidia.com keys', ['nvapi-'], `${START}nvapi-[A-Za-z0-9_-]{40,128}`, `nvapi-${sample('nvapi', 64)}`),
  vendor('pypi-token', 'PyPI upload tokens', ['pypi-age'], `${START}pypi-AgE[A-Za-z0-9_-]{50,512}`, `pypi-AgEIcHlwaS5vcmc${sample('pypi', 60)}`),
  vendor('sendgrid-key', 'SendGrid API keys', ['sg.'], `${START}SG\\.[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{30,64}`, `SG.${sample('sg', 22)}.${sample('sg2', 43)}`),
  vendor('telegram-bot-token', 'Telegram bot tokens', [':aa'], '(?<![0-9])[0-9]{8,10}:AA[A-Za-z0-9_-]{33}', `1234567890:AA${sample('tg', 33)}`),
  vendor('jwt', 'JSON Web Tokens (also Grafana and Supabase keys, session cookies)', ['eyj'],
    `${START}eyJ[A-Za-z0-9_-]{8,4096}\\.eyJ[A-Za-z0-9_-]{8,8192}\\.[A-Za-z0-9_-]{8,2048}`, `eyJ${sample('jwt1', 30)}.eyJ${sample('jwt2', 60)}.${sample('jwt3', 43)}`),
  vendor('groq-key', 'Groq API keys', ['gsk_'], `${START}gsk_[A-Za-z0-9]{52}${END}`, `gsk_${sample('groq', 52)}`),
  vendor('linear-key', 'Linear API keys', ['lin_api_'], `${START}lin_api_[A-Za-z0-9_]{32,128}`, `lin_api_${sample('linear', 40)}`),
  vendor('notion-token', 'Notion integration tokens', ['ntn_', 'secret_'], `${START}(?:ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})${END}`, `ntn_${sample('ntn', 11, '0123456789')}${sample('ntn2', 35)}`),
  vendor('vault-token', 'HashiCorp Vault service, batch and recovery tokens', ['hvs.', 'hvb.', 'hvr.'], `${START}hv[sbr]\\.[A-Za-z0-9_-]{24,300}`, `hvs.${sample('vault', 90)}`),
  vendor('terraform-token', 'Terraform Cloud / Enterprise API tokens', ['.atlasv1.'], '[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,70}', `${sample('tf', 14)}.atlasv1.${sample('tf2', 67)}`),
  vendor('vercel-token', 'Vercel tokens', ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'], `${START}vc[picrk]_[A-Za-z0-9]{20,60}${END}`, `vcp_${sample('vercel', 24)}`),
  vendor('databricks-token', 'Databricks personal access tokens', ['dapi'], `${START}dapi[a-f0-9]{32}(?:-\\d)?${END}`, `dapi${sample('dapi', 32, HEX)}`),
  vendor('figma-token', 'Figma personal access tokens', ['figd_'], `${START}figd_[A-Za-z0-9_-]{40,200}`, `figd_${sample('figma', 40)}`),
  vendor('cloudflare-token', 'Cloudflare API tokens and keys', ['cfk_', 'cfut_', 'cfat_'], `${START}(?:cfk|cfut|cfat)_[A-Za-z0-9]{40}[0-9a-f]{8}${END}`, `cfut_${sample('cf', 40)}${sample('cf2', 8, HEX)}`),
  vendor('tailscale-key', 'Tailscale auth and API keys', ['tskey-'], `${START}tskey-[a-z]{2,20}-[0-9A-Za-z_]{8,40}-[0-9A-Za-z_]{16,60}`, `tskey-auth-${sample('ts', 12)}-${sample('ts2', 30)}`),
  vendor('grafana-token', 'Grafana service account and cloud tokens', ['glsa_', 'glc_', 'eyjrijoi'],
    `${START}(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,400}={0,2}|eyJrIjoi[A-Za-z0-9+/]{40,400}={0,2})`, `glsa_${sample('glsa', 32)}_${sample('glsa2', 8, HEX)}`),
  vendor('shopify-token', 'Shopify access tokens and shared secrets', ['shppa_', 'shpca_', 'shpat_', 'shpss_'], `${START}shp(?:pa|ca|at|ss)_[a-fA-F0-9]{32}`, `shpat_${sample('shop', 32, HEX)}`),
  vendor('docker-hub-token', 'Docker Hub personal and organisation access tokens', ['dckr_pat_', 'dckr_oat_'], `${START}dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,64}`, `dckr_pat_${sample('dckr', 27)}`),
  vendor('1password-token', '1Password service account tokens', ['ops_eyj'], `${START}ops_eyJ[A-Za-z0-9+/=]{100,1280}`, `ops_eyJ${sample('ops', 120, B64)}`),
  vendor('digitalocean-token', 'DigitalOcean personal, OAuth and refresh tokens', ['dop_v1_', 'doo_v1_', 'dor_v1_'], `${START}do[opr]_v1_[a-f0-9]{64}`, `dop_v1_${sample('do', 64, HEX)}`),
  vendor('doppler-token', 'Doppler tokens', ['dp.pt.', 'dp.st.', 'dp.sa.', 'dp.ct.', 'dp.scim.', 'dp.audit.'],
    `${START}dp\\.(?:pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9]{40,44}`, `dp.pt.${sample('doppler', 43)}`),
  vendor('pulumi-token', 'Pulumi access tokens', ['pul-'], `${START}pul-[a-f0-9]{40}${END}`, `pul-${sample('pulumi', 40, HEX)}`),
  vendor('replicate-token', 'Replicate API tokens', ['r8_'], `${START}r8_[A-Za-z0-9]{37}${END}`, `r8_${sample('r8', 37)}`),
  vendor('perplexity-key', 'Perplexity API keys', ['pplx-'], `${START}pplx-[A-Za-z0-9]{48}${END}`, `pplx-${sample('pplx', 48)}`),
  vendor('xai-key', 'xAI API keys', ['xai-'], `${START}xai-[A-Za-z0-9]{80}${END}`, `xai-${sample('xai', 80)}`),
  vendor('sentry-token', 'Sentry organisation and user tokens', ['sntrys_', 'sntryu_'], `${START}sntry[su]_[A-Za-z0-9+/=_]{40,400}`, `sntrys_${sample('sentry', 64)}`),
  vendor('newrelic-key', 'New Relic user API keys', ['nrak-'], `${START}NRAK-[A-Z0-9]{27}${END}`, `NRAK-${sample('nrak', 27, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`),
  vendor('atlassian-token', 'Atlassian API tokens', ['atatt3'], `${START}ATATT3[A-Za-z0-9_=-]{180,200}`, `ATATT3${sample('atl', 186)}`),
  vendor('postman-key', 'Postman API keys', ['pmak-'], `${START}PMAK-[a-f0-9]{24}-[a-f0-9]{34}`, `PMAK-${sample('pm', 24, HEX)}-${sample('pm2', 34, HEX)}`),
  vendor('rubygems-key', 'RubyGems API keys', ['rubygems_'], `${START}rubygems_[a-f0-9]{48}`, `rubygems_${sample('gem', 48, HEX)}`),
  vendor('heroku-key', 'Heroku API keys (v2)', ['hrku-'], `${START}HRKU-[A-Za-z0-9_-]{60}`, `HRKU-${sample('hrku', 60)}`),
  vendor('planetscale-token', 'PlanetScale tokens and passwords', ['pscale_'], `${START}pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,64}`, `pscale_pw_${sample('ps', 43)}`),
  vendor('supabase-token', 'Supabase access tokens', ['sbp_'], `${START}sbp_[a-f0-9]{40}${END}`, `sbp_${sample('sbp', 40, HEX)}`),
  vendor('langsmith-key', 'LangSmith API keys', ['lsv2_'], `${START}lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}`, `lsv2_pt_${sample('ls', 32, HEX)}_${sample('ls2', 10, HEX)}`),
  vendor('azure-ad-client-secret', 'Azure AD (Entra) client secrets', ['q~'],
    '(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])', `${sample('az', 3)}8Q~${sample('az2', 34)}`),
  vendor('k3s-token', 'k3s / RKE2 cluster join tokens', ['k10'], `${START}K10[0-9a-f]{64}::[a-z]{1,16}:[0-9a-f]{32}${END}`, `K10${sample('k3s', 64, HEX)}::server:${sample('k3s2', 32, HEX)}`),
  {
    id: 'azure-sas-signature',
    description: 'The signature of an Azure shared access signature (`sig=` in a SAS URL or connection string)',
    keywords: ['sig='],
    regex: '[?&;]sig=([A-Za-z0-9%+/=]{16,256})',
    secretGroups: [1],
    values: 'shape',
    examples: [{ text: `https://acct.blob.core.windows.net/c/b?sv=2022-11-02&ss=b&sig=${sample('sas', 40)}%3D`, secret: sample('sas', 40) }],
  },
];
