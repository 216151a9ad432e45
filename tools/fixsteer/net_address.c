// Addresses of `fixsteer host` / `join` (net.h). ENet 1.3 addresses are IPv4 only (an
// ENetAddress is a 32-bit host and a port), so an IPv6 address is refused with that reason
// instead of a failed lookup. Numeric addresses are read here, strictly, so that a typo such
// as 999.1.1.1 is refused at once and never sent to a name server as a host name.
#define _DEFAULT_SOURCE

#include <stdio.h>

#include "net.h"

#ifndef FXS_TOOL_NO_ENET

#include <string.h>

// Reads one number 0..255 of an IPv4 address from [at, end).
static bool ipv4_part(const char *at, const char *end, uint32_t *value, char *why, size_t size) {
  size_t n = (size_t)(end - at);
  if (n == 0) return snprintf(why, size, "a number is missing"), false;
  if (n > 3) return snprintf(why, size, "'%.*s' is above 255", (int)n, at), false;
  uint32_t v = 0;
  for (const char *c = at; c < end; ++c) {
    if (*c < '0' || *c > '9')
      return snprintf(why, size, "'%.*s' is not a decimal number", (int)n, at), false;
    v = v * 10u + (uint32_t)(*c - '0');
  }
  if (v > 255) return snprintf(why, size, "%u is above 255", v), false;
  if (n > 1 && at[0] == '0')
    return snprintf(why, size, "'%.*s' has a leading zero (octal to some readers)", (int)n, at),
           false;
  *value = v;
  return true;
}

bool net_parse_ipv4(const char *text, size_t len, uint32_t *host, char *why, size_t why_size) {
  uint8_t bytes[4];
  const char *at = text, *end = text + len;
  for (int i = 0; i < 4; ++i) {
    const char *dot = at;
    while (dot < end && *dot != '.') ++dot;
    if (i < 3 && dot == end) {
      snprintf(why, why_size, "it has %d numbers, not 4 (a.b.c.d)", i + 1);
      return false;
    }
    if (i == 3 && dot != end) {
      snprintf(why, why_size, "it has more than 4 numbers (a.b.c.d)");
      return false;
    }
    uint32_t v;
    if (!ipv4_part(at, dot, &v, why, why_size)) return false;
    bytes[i] = (uint8_t)v;
    at = dot + 1;
  }
  memcpy(host, bytes, 4); // the bytes in order are network byte order
  return true;
}

const char *net_ip(uint32_t host, char *buf) {
  uint8_t b[4];
  memcpy(b, &host, 4);
  snprintf(buf, NET_IP_BYTES, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
  return buf;
}

bool net_is_loopback(uint32_t host) {
  uint8_t b[4];
  memcpy(b, &host, 4);
  return b[0] == 127;
}

// Letters, digits, '-', '_' and '.', at most 253 of them: what a host name may hold.
static bool host_name_chars(const char *v) {
  size_t n = strlen(v);
  return n > 0 && n <= 253 &&
         strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == n;
}

int net_resolve(const char *cmd, const char *option, const char *value, ENetAddress *out) {
  char why[96];
  memset(out, 0, sizeof *out);
  size_t n = strlen(value);
  if (strchr(value, ':') || value[0] == '[') {
    fprintf(stderr,
            "fixsteer %s: %s %s: an IPv6 address, and this fixsteer's ENet (%d.%d) has no IPv6: "
            "give an IPv4 address or a host name that has one\n",
            cmd, option, value, ENET_VERSION_MAJOR, ENET_VERSION_MINOR);
    return EXIT_BAD;
  }
  if (n > 0 && strspn(value, "0123456789.") == n) {
    if (net_parse_ipv4(value, n, &out->host, why, sizeof why)) return EXIT_OK;
    fprintf(stderr, "fixsteer %s: %s %s: not an IPv4 address: %s\n", cmd, option, value, why);
    return EXIT_BAD;
  }
  if (!host_name_chars(value)) {
    fprintf(stderr,
            "fixsteer %s: %s '%s': not an IPv4 address nor a host name (letters, digits, '-', "
            "'_' and '.', at most 253)\n",
            cmd, option, value);
    return EXIT_BAD;
  }
  if (enet_address_set_host(out, value) != 0) {
    fprintf(stderr, "fixsteer %s: %s %s: cannot resolve this name to an IPv4 address\n", cmd,
            option, value);
    return EXIT_NET;
  }
  return EXIT_OK;
}

#endif
