const matchOperatorsRegex = /[|\\{}()[\]^$+*?.-]/g;

export default function escapeStringRegexp(string) {
	if (typeof string !== 'string') {
		throw new TypeError('Expected a string');
	}

	return string.replace(matchOperatorsRegex, '\\$&');
}
