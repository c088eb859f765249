# shellcheck shell=bash
# Shared helper, sourced by script/test and script/server (not executed directly).
# Ensures ./.venv exists and has the project installed in editable mode with the
# [dev] extra; reinstalls only when pyproject.toml has changed since the last install.
# Expects the current directory to be the repository root.

_venv_die() {
    echo "error: $*" >&2
    exit 1
}

_venv_python_ok() {
    python3 -c 'import ensurepip, venv' >/dev/null 2>&1
}

_venv_ensure_venv_module() {
    command -v python3 >/dev/null 2>&1 \
        || _venv_die "python3 not found; install Python >= 3.11 (e.g. apt-get install python3)."
    _venv_python_ok && return 0

    local pyver
    pyver="$(python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"

    if [[ "$(id -u)" -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
        echo "python3 venv/ensurepip missing; installing python3-venv via apt-get..." >&2
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null || true
        if ! _venv_python_ok; then
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "python${pyver}-venv" \
                >/dev/null || true
        fi
        _venv_python_ok \
            || _venv_die "python3 still cannot create venvs after installing python3-venv" \
                "and python${pyver}-venv; check your Python installation."
    else
        _venv_die "python3 cannot create virtual environments (ensurepip/venv missing)." \
            "Install the venv package, e.g.: sudo apt-get install python3-venv" \
            "(or python${pyver}-venv), then re-run."
    fi
}

_venv_sha256() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d' ' -f1
    else
        python3 -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$1"
    fi
}

ensure_venv() {
    if [[ ! -x .venv/bin/python ]]; then
        _venv_ensure_venv_module
        echo "creating .venv..."
        rm -rf .venv
        python3 -m venv .venv || _venv_die "python3 -m venv .venv failed."
    fi

    local want have=""
    want="$(_venv_sha256 pyproject.toml)"
    [[ -f .venv/.pyproject.sha256 ]] && have="$(<.venv/.pyproject.sha256)"

    if [[ "$want" != "$have" ]]; then
        echo "installing project into .venv (pyproject.toml changed)..."
        .venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
        .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'
        printf '%s\n' "$want" > .venv/.pyproject.sha256
        echo "venv ready"
    else
        echo "venv up to date"
    fi

    PATH="$PWD/.venv/bin:$PATH"
    export PATH
}

ensure_venv
