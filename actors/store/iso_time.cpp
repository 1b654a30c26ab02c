#include "actors/store/iso_time.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace parley::actors::store {

namespace {

// Howard Hinnant's days-from-civil and civil-from-days: exact for every date
// of the proleptic Gregorian calendar, no time zone database involved.
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  auto era = (y >= 0 ? y : y - 399) / 400;
  auto yoe = static_cast<unsigned>(y - era * 400);
  auto doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  auto doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  auto era = (z >= 0 ? z : z - 146096) / 146097;
  auto doe = static_cast<unsigned>(z - era * 146097);
  auto yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<std::int64_t>(yoe) + era * 400;
  auto doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  auto mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  auto q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

bool digits(const std::string& s, std::size_t pos, std::size_t n, unsigned& out) {
  if (pos + n > s.size())
    return false;
  out = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9')
      return false;
    out = out * 10 + static_cast<unsigned>(s[i] - '0');
  }
  return true;
}

} // namespace

std::size_t format_iso(std::int64_t unix_ms, char* out) {
  auto days = floor_div(unix_ms, 86'400'000);
  auto ms_of_day = static_cast<unsigned>(unix_ms - days * 86'400'000);
  // The date of the last call is kept (per thread): a run's timestamps
  // mostly fall on one day, and the calendar arithmetic costs more than the
  // rest of the text.
  thread_local std::int64_t last_day = 0;
  thread_local char date[24] = {};
  thread_local std::size_t date_size = 0;
  if (date_size == 0 || days != last_day) {
    std::int64_t y;
    unsigned m, d;
    civil_from_days(days, y, m, d);
    auto n = std::snprintf(date, sizeof(date), "%04lld-%02u-%02u",
                           static_cast<long long>(y), m, d);
    date_size = n > 0 ? std::min(static_cast<std::size_t>(n), sizeof(date) - 1) : 0;
    last_day = days;
  }
  std::memcpy(out, date, date_size);
  char* p = out + date_size;
  auto put = [&p](unsigned value, int width) {
    for (int i = width; i-- > 0; value /= 10)
      p[i] = static_cast<char>('0' + value % 10);
    p += width;
  };
  *p++ = 'T';
  put(ms_of_day / 3'600'000, 2);
  *p++ = ':';
  put(ms_of_day / 60'000 % 60, 2);
  *p++ = ':';
  put(ms_of_day / 1000 % 60, 2);
  *p++ = '.';
  put(ms_of_day % 1000, 3);
  *p++ = 'Z';
  return static_cast<std::size_t>(p - out);
}

std::string to_iso(std::int64_t unix_ms) {
  char buf[iso_buffer_size];
  return std::string(buf, format_iso(unix_ms, buf));
}

void append_iso(std::string& out, std::int64_t unix_ms) {
  char buf[iso_buffer_size];
  out.append(buf, format_iso(unix_ms, buf));
}

bool from_iso(const std::string& s, std::int64_t& unix_ms) {
  unsigned y, mo, d, h, mi, sec;
  if (!digits(s, 0, 4, y) || s.size() < 19 || s[4] != '-' || !digits(s, 5, 2, mo) ||
      s[7] != '-' || !digits(s, 8, 2, d) || (s[10] != 'T' && s[10] != ' ') ||
      !digits(s, 11, 2, h) || s[13] != ':' || !digits(s, 14, 2, mi) || s[16] != ':' ||
      !digits(s, 17, 2, sec))
    return false;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
    return false;
  std::size_t pos = 19;
  unsigned ms = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    unsigned n = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (n < 3)
        ms = ms * 10 + static_cast<unsigned>(s[pos] - '0');
      ++n;
      ++pos;
    }
    if (n == 0 || n > 6)
      return false;
    for (; n < 3; ++n)
      ms *= 10;
  }
  auto rest = s.substr(pos);
  if (rest != "Z" && rest != "+00:00" && rest != "+00")
    return false;
  unix_ms = (days_from_civil(y, mo, d) * 86'400 + h * 3600 + mi * 60 + sec) * 1000 + ms;
  return true;
}

} // namespace parley::actors::store
