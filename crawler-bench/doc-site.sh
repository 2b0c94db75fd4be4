# shellcheck shell=bash
# A Debian documentation package served by nginx on a loopback address: what real-bench.sh, kill-resume.sh and
# server-bench.sh share, sourced by each (from the repository's root). Functions only, and the package table; a
# function that prints a message names the script it speaks for.
#
# Packages (NAME: the Debian package or its short name), the folder served and the seeds:
#   rust-doc (rust)              /usr/share/doc/rust-doc/html                 /index.html /book/2018-edition/index.html
#   apache2-doc (apache)         /usr/share/doc/apache2-doc/manual            /index.html
#   libboost1.81-doc (boost)     /usr/share/doc/libboost1.81-doc/doc/html     /index.html
#   python-django-doc (django)   /usr/share/doc/python-django-doc/html        /index.html
#
# nginx runs with a configuration of the script's own, WORK/nginx.conf, its pid in WORK/nginx.pid, and is stopped
# through that pid file: no other nginx is touched.

# The packages: Debian name, short name, folder served, seeds (paths).
PKG_NAMES=(rust-doc apache2-doc libboost1.81-doc python-django-doc)
PKG_SHORT=(rust apache boost django)
PKG_ROOTS=(/usr/share/doc/rust-doc/html /usr/share/doc/apache2-doc/manual /usr/share/doc/libboost1.81-doc/doc/html
  /usr/share/doc/python-django-doc/html)
PKG_SEEDS=("/index.html /book/2018-edition/index.html" "/index.html" "/index.html" "/index.html")

package_choices() { # the Debian names, as a usage line lists them: rust-doc|apache2-doc|...
  local IFS='|'
  echo "${PKG_NAMES[*]}"
}

package_option() { # ARGS...: sets PACKAGE from --package NAME or --package=NAME (rust-doc without); 1 on other arguments
  PACKAGE=rust-doc
  while [ $# -gt 0 ]; do
    case "$1" in
      --package) [ $# -ge 2 ] || return 1; PACKAGE=$2; shift 2 ;;
      --package=*) PACKAGE=${1#--package=}; shift ;;
      *) return 1 ;;
    esac
  done
}

package_index() { # SCRIPT NAME: the table's index of package NAME (Debian or short name); else SCRIPT says so, 1
  local i
  for i in "${!PKG_NAMES[@]}"; do
    if [ "$2" = "${PKG_NAMES[$i]}" ] || [ "$2" = "${PKG_SHORT[$i]}" ]; then echo "$i"; return 0; fi
  done
  echo "$1: --package $2: not one of ${PKG_NAMES[*]}" >&2
  return 1
}

site_missing() { # INDEX...: the Debian packages to install to serve these packages: those not there, and nginx
  local i
  for i in "$@"; do
    [ -d "${PKG_ROOTS[$i]}" ] || echo "${PKG_NAMES[$i]}"
  done
  [ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || echo nginx
}

apt_install() { # SCRIPT PACKAGE...: installs the packages with apt-get (through sudo unless root); none, nothing
  local script=$1 sudo
  shift
  [ $# -gt 0 ] || return 0
  echo "$script: installing $* with apt-get" >&2
  sudo=$([ "$(id -u)" = 0 ] && echo "" || echo sudo)
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

nginx_conf() { # WORK WORKERS CONNECTIONS ERROR_LOG LOG_FORMAT SERVER...: an nginx.conf, on stdout
  # LOG_FORMAT: the access logs' format, named "site" (a server's access log: "access_log FILE site"), or "off" for
  # no access log; SERVER: an nginx_server block. sendfile, keep-alive for 100,000 requests, no 404s in the error log.
  local work=$1 workers=$2 connections=$3 error_log=$4 format=$5
  shift 5
  cat <<EOF
worker_processes $workers;
daemon on;
pid $work/nginx.pid;
error_log $error_log warn;
events { worker_connections $connections; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
EOF
  if [ "$format" = off ]; then
    echo "  access_log off;"
  else
    printf "  log_format site '%s';\n" "$format"
  fi
  echo "  sendfile on;"
  echo "  keepalive_requests 100000;"
  echo "  log_not_found off;"
  printf '%s\n' "$@"
  echo "}"
}

nginx_server() { # COMMENT LISTEN ROOT [DIRECTIVE...]: one server block of nginx_conf, serving ROOT on LISTEN
  local comment=$1 listen=$2 root=$3 directive
  shift 3
  echo "  server { # $comment"
  echo "    listen $listen;"
  echo "    root $root;"
  for directive in "$@"; do echo "    $directive;"; done
  echo "  }"
}

nginx_command() { # the nginx binary
  command -v nginx || echo /usr/sbin/nginx
}

nginx_start() { # WORK: starts nginx with WORK/nginx.conf, and waits (up to 5 s) for its pid file
  "$(nginx_command)" -c "$1/nginx.conf" -p "$1"
  for _ in $(seq 50); do [ -s "$1/nginx.pid" ] && break; sleep 0.1; done
}

nginx_stop() { # WORK: stops the nginx nginx_start started there, if it runs
  [ -f "$1/nginx.pid" ] && "$(nginx_command)" -c "$1/nginx.conf" -p "$1" -s stop 2>/dev/null || true
}
