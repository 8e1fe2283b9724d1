# validate_sarif FILE...: validates SARIF logs against the SARIF 2.1.0 JSON
# schema with Ajv (sourced after common.sh). Ajv comes from npm with the
# versions pinned in sarif/package-lock.json; the schema is the
# sarif-2.1.0.json that @microsoft/sarif-multitool-linux ships (JSON Schema
# draft 2020-12, the 52 definitions of the OASIS schema), fetched with
# npm pack and checked by its SHA-256. Both are cached under $CACHE.

SARIF_TOOL_VERSION=5.7.0
SARIF_SCHEMA_SHA256=1c49a0f2b60444c71bb14878e21e0d882198eff4c539861b133093ad89ed798c

sarif_setup() {
	need node nodejs
	need npm npm
	local src="$ROOT/scripts/e2e/lib/sarif" dst="$CACHE/sarif"
	mkdir -p "$dst"
	if ! cmp -s "$src/package-lock.json" "$dst/package-lock.json" || [ ! -d "$dst/node_modules/ajv" ]; then
		log "installing ajv from npm (pinned by package-lock.json)"
		rm -rf "$dst/node_modules"
		cp "$src/package.json" "$src/package-lock.json" "$dst/"
		(cd "$dst" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >/dev/null) || fail "npm ci in $dst"
	fi
	cp "$src/validate.mjs" "$dst/validate.mjs"
	SARIF_SCHEMA=$dst/sarif-2.1.0.json
	if [ "$(sha256sum "$SARIF_SCHEMA" 2>/dev/null | cut -d' ' -f1)" != "$SARIF_SCHEMA_SHA256" ]; then
		log "fetching the SARIF 2.1.0 schema (npm pack @microsoft/sarif-multitool-linux@$SARIF_TOOL_VERSION)"
		local pack="$WORK/sarif-pack"
		mkdir -p "$pack"
		(cd "$pack" && npm pack --silent "@microsoft/sarif-multitool-linux@$SARIF_TOOL_VERSION" >/dev/null) || fail "npm pack"
		tar -xzf "$pack"/microsoft-sarif-multitool-linux-*.tgz -C "$pack" package/sarif-2.1.0.json || fail "no sarif-2.1.0.json in the package"
		[ "$(sha256sum "$pack/package/sarif-2.1.0.json" | cut -d' ' -f1)" = "$SARIF_SCHEMA_SHA256" ] || fail "sarif-2.1.0.json has an unexpected SHA-256"
		mv "$pack/package/sarif-2.1.0.json" "$SARIF_SCHEMA"
		rm -rf "$pack"
	fi
}

validate_sarif() {
	[ -n "${SARIF_SCHEMA:-}" ] || sarif_setup
	node "$CACHE/sarif/validate.mjs" "$SARIF_SCHEMA" "$@"
}
