/** English text for field codes (spec §5); the console shows its own translated text per code. */
export const FIELD_MESSAGES: Record<string, string> = {
  required: 'Field required',
  invalid: 'Invalid value',
  invalid_type: 'Invalid value type',
  unknown_field: 'Unknown field',
  max_length: 'Maximum length exceeded',
  min_length: 'Minimum length not reached',
  no_special_chars: 'No special characters allowed',
  'password.digit': 'At least one digit required',
  'password.special': 'At least one special character required',
  'password.uppercase': 'At least one uppercase character required',
  'password.lowercase': 'At least one lowercase character required',
  'username.starts_with_number': 'Cannot start from a number',
  'username.forbidden_characters': 'Forbidden characters',
  email: 'Invalid email address',
  phone: 'Invalid phone number',
  name_taken: 'Name already taken',
  username_taken: 'Username already in use',
  email_taken: 'Email already in use',
  min_value: 'Value is too small',
  max_value: 'Value is too large',
  number: 'Enter a valid number',
  'network.address_with_mask': 'Enter a valid address with a netmask',
  'network.endpoint': 'Enter a valid endpoint',
  'network.port': 'Enter a valid port',
  'network.max_port': 'Maximum port is 65535',
  'network.allowed_ip': 'Allowed IPs accept only a valid IP or domain',
  'network.dns': 'Enter a valid IP address or domain',
  'network.ip_in_use': 'IP already in use',
  'network.ip_invalid': 'Invalid IP',
  'network.ip_outside': 'IP is outside of the location network',
  'device.invalid_key': 'Invalid key',
  'device.name_taken': 'Device with this name already exists',
  reserved: 'This name is reserved',
  'url.http': 'Use an http(s) address or a path starting with /',
  'url.invalid': 'URL is not valid',
  'url.credentials': 'Put credentials in the fields for them, not in the URL',
  'url.blocked': 'This address is not reachable from Palisade (private, loopback or link-local); an administrator can allow it',
  'url.unresolvable': 'The host name could not be resolved',
  'webhook.trigger_required': 'Select at least one trigger',
  'mfa.code_digits': 'Code must have 6 digits',
  'certificate.pem': 'Paste a PEM certificate (-----BEGIN CERTIFICATE-----)',
  cidr: 'Enter a valid CIDR (for example 10.0.0.0/8)',
  'user.not_found': 'User not found',
  'group.not_found': 'Group not found',
};

/** The English text of a numeric bound with its value (spec §5 "minimum and maximum value"). */
export function boundMessage(code: string, params: { min?: number; max?: number }): string | undefined {
  if (code === 'min_value' && params.min !== undefined) return `Minimum value is ${params.min}`;
  if (code === 'max_value' && params.max !== undefined) return `Maximum value is ${params.max}`;
  return undefined;
}
