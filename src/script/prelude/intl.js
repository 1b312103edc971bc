// `Intl`, as Node 20 built with small-icu has it: English only, every
// locale formats as en-US (ICU 73's CLDR data for en), in the process's
// zone, UTC. A part of the prelude (prelude.js, `intlPart`) that a realm
// runs the first time its script reads `Intl`, passes options to
// `toLocaleString` or calls `localeCompare`.
//
// - NumberFormat: decimal, percent and currency (symbol, narrowSymbol or
//   code), fraction and significant digits rounded half away from zero on
//   the number's shortest digits, grouping, sign display; `format`,
//   `formatToParts`, `resolvedOptions`.
// - DateTimeFormat: dateStyle and timeStyle, and weekday, year, month,
//   day, hour, minute, second and timeZoneName in en-US's patterns, in
//   UTC.
// - Collator: CLDR's root order for ASCII text (punctuation, then digits,
//   then letters, a letter's lower case before its upper case) and for
//   accented Latin letters (an accent weighs less than a letter); other
//   text compares by code units.
// - PluralRules: en's cardinal and ordinal categories.
//
// An option these do not simulate (a compact notation, another time zone,
// a unit style) is a RangeError that names it, never a silent difference.
"use strict";
(function ({ shortestDigits, plusOne, standIns }) {
  const notSimulated = (what, option, value) =>
    new RangeError(
      `Intl.${what}: ${option} ${JSON.stringify(value)} is not simulated (Intl here is Node's with ` +
        "small-icu: en-US, in UTC)"
    );
  const outOfRange = (what, option, value) =>
    new RangeError(`Value ${value} out of range for Intl.${what} options property ${option}`);
  const toOptions = (options) => {
    if (options === undefined) return Object.create(null);
    if (options === null) throw new TypeError("Cannot convert undefined or null to object");
    return Object(options);
  };
  const getString = (what, options, name, allowed, fallback) => {
    const value = options[name];
    if (value === undefined) return fallback;
    const text = String(value);
    if (allowed !== undefined && !allowed.includes(text)) throw outOfRange(what, name, text);
    return text;
  };
  const getNumber = (options, name, min, max, fallback) => {
    const value = options[name];
    if (value === undefined) return fallback;
    const number = Number(value);
    if (Number.isNaN(number) || number < min || number > max) {
      throw new RangeError(`${name} value is out of range.`);
    }
    return Math.floor(number);
  };
  // The locale tags asked for, each checked (a malformed tag is an error
  // here as in Node).
  const localeList = (locales) => {
    const list = locales === undefined ? [] : typeof locales === "string" ? [locales] : Array.from(Object(locales));
    for (const tag of list) {
      if (typeof tag !== "string" && (typeof tag !== "object" || tag === null)) {
        throw new TypeError("Language ID should be string or object.");
      }
      if (!/^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*$/.test(String(tag))) {
        throw new RangeError(`Incorrect locale information provided`);
      }
    }
    return list.map(String);
  };
  // Every locale is en-US here.
  const resolveLocale = (locales) => {
    localeList(locales);
    return "en-US";
  };
  const supportedLocalesOf = (locales) =>
    localeList(locales).filter((tag) => /^en(?:[-_]US)?$/i.test(tag)).map(() => "en-US");
  // Each Intl object's resolved options (its internal slots), with its
  // class: a method called on anything else is V8's TypeError.
  const internal = new WeakMap();
  const slotsOf = (object, Class, method) => {
    const entry = internal.get(object);
    if (entry === undefined || entry.Class !== Class) {
      throw new TypeError(`Method Intl.${Class.name}.prototype.${method} called on incompatible receiver`);
    }
    return entry.slots;
  };
  const hidden = (object, name, value) =>
    Object.defineProperty(object, name, { value, writable: true, configurable: true, enumerable: false });
  // What every Intl class has: its tag, `supportedLocalesOf`,
  // `resolvedOptions` (a copy of its slots), and a getter of a function
  // bound to the object, made once (`format`, `compare`), as the spec's.
  const intlClass = (Class, boundName, bound) => {
    Object.defineProperty(Class.prototype, Symbol.toStringTag, { value: `Intl.${Class.name}`, configurable: true });
    hidden(Class, "supportedLocalesOf", function supportedLocalesOf_(locales) {
      return supportedLocalesOf(locales);
    });
    hidden(Class.prototype, "resolvedOptions", function resolvedOptions() {
      return Object.assign({}, slotsOf(this, Class, "resolvedOptions"));
    });
    if (boundName === undefined) return;
    const made = new WeakMap();
    Object.defineProperty(Class.prototype, boundName, {
      get() {
        const slots = slotsOf(this, Class, boundName);
        if (!made.has(this)) made.set(this, (...args) => bound(slots, ...args));
        return made.get(this);
      },
      configurable: true,
    });
  };
  // A formatter's `format` and `formatToParts`, from its parts.
  const formatterClass = (Class, parts) => {
    intlClass(Class, "format", (slots, value) => parts(slots, value).map((part) => part.value).join(""));
    hidden(Class.prototype, "formatToParts", function formatToParts(value) {
      return parts(slotsOf(this, Class, "formatToParts"), value);
    });
  };

  // --- NumberFormat -------------------------------------------------------

  // ICU's en-US currency symbols; any other currency shows its code.
  const SYMBOLS = {
    USD: "$", EUR: "€", GBP: "£", JPY: "¥", CAD: "CA$", AUD: "A$", NZD: "NZ$", HKD: "HK$",
    MXN: "MX$", BRL: "R$", CNY: "CN¥", INR: "₹", KRW: "₩", ILS: "₪", VND: "₫", TWD: "NT$",
    XAF: "FCFA", XOF: "F\u202fCFA", PHP: "₱",
  };
  const NARROW = { CAD: "$", AUD: "$", NZD: "$", HKD: "$", MXN: "$", TWD: "$", BRL: "R$", CNY: "¥", RUB: "₽", UAH: "₴", TRY: "₺", PLN: "zł", SEK: "kr", NOK: "kr", DKK: "kr", CHF: "CHF" };
  const CURRENCY_DIGITS = {
    JPY: 0, KRW: 0, VND: 0, CLP: 0, ISK: 0, PYG: 0, UGX: 0, XAF: 0, XOF: 0, RWF: 0, KMF: 0,
    DJF: 0, GNF: 0, VUV: 0, XPF: 0, BIF: 0, BHD: 3, KWD: 3, JOD: 3, OMR: 3, TND: 3, LYD: 3, IQD: 0,
  };

  class NumberFormat {
    constructor(locales, options) {
      const what = "NumberFormat";
      const locale = resolveLocale(locales);
      options = toOptions(options);
      getString(what, options, "localeMatcher", ["lookup", "best fit"], "best fit");
      const numberingSystem = getString(what, options, "numberingSystem", undefined, "latn");
      if (numberingSystem !== "latn") throw notSimulated(what, "numberingSystem", numberingSystem);
      const style = getString(what, options, "style", ["decimal", "percent", "currency", "unit"], "decimal");
      if (style === "unit") throw notSimulated(what, "style", style);
      let currency = options.currency;
      if (currency !== undefined) {
        currency = String(currency);
        if (!/^[A-Za-z]{3}$/.test(currency)) throw new RangeError(`Invalid currency code : ${currency}`);
        currency = currency.toUpperCase();
      }
      const currencyDisplay = getString(what, options, "currencyDisplay", ["code", "symbol", "narrowSymbol", "name"], "symbol");
      const currencySign = getString(what, options, "currencySign", ["standard", "accounting"], "standard");
      if (style === "currency" && currency === undefined) {
        throw new TypeError("Currency code is required with currency style.");
      }
      if (currencyDisplay === "name") throw notSimulated(what, "currencyDisplay", currencyDisplay);
      if (currencySign === "accounting") throw notSimulated(what, "currencySign", currencySign);
      const notation = getString(what, options, "notation", ["standard", "scientific", "engineering", "compact"], "standard");
      if (notation !== "standard") throw notSimulated(what, "notation", notation);
      const minimumIntegerDigits = getNumber(options, "minimumIntegerDigits", 1, 21, 1);
      const mnsd = options.minimumSignificantDigits;
      const mxsd = options.maximumSignificantDigits;
      const mnfd = options.minimumFractionDigits;
      const mxfd = options.maximumFractionDigits;
      const roundingIncrement = getNumber(options, "roundingIncrement", 1, 5000, 1);
      if (roundingIncrement !== 1) throw notSimulated(what, "roundingIncrement", roundingIncrement);
      const roundingMode = getString(what, options, "roundingMode", [
        "ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven",
      ], "halfExpand");
      if (roundingMode !== "halfExpand") throw notSimulated(what, "roundingMode", roundingMode);
      const roundingPriority = getString(what, options, "roundingPriority", ["auto", "morePrecision", "lessPrecision"], "auto");
      if (roundingPriority !== "auto") throw notSimulated(what, "roundingPriority", roundingPriority);
      const trailingZeroDisplay = getString(what, options, "trailingZeroDisplay", ["auto", "stripIfInteger"], "auto");
      const slots = { locale, numberingSystem, style };
      if (style === "currency") Object.assign(slots, { currency, currencyDisplay, currencySign });
      slots.minimumIntegerDigits = minimumIntegerDigits;
      const fractionDefault = style === "currency" ? (CURRENCY_DIGITS[currency] ?? 2) : 0;
      const fractionMax = style === "currency" ? fractionDefault : style === "percent" ? 0 : 3;
      if (mnsd !== undefined || mxsd !== undefined) {
        slots.minimumSignificantDigits = getNumber(options, "minimumSignificantDigits", 1, 21, 1);
        slots.maximumSignificantDigits = getNumber(options, "maximumSignificantDigits", slots.minimumSignificantDigits, 21, 21);
      } else if (mnfd !== undefined || mxfd !== undefined) {
        let min = getNumber(options, "minimumFractionDigits", 0, 20, undefined);
        let max = getNumber(options, "maximumFractionDigits", 0, 20, undefined);
        if (min === undefined) min = Math.min(fractionDefault, max);
        else if (max === undefined) max = Math.max(fractionMax, min);
        else if (min > max) throw new RangeError("maximumFractionDigits value is out of range.");
        slots.minimumFractionDigits = min;
        slots.maximumFractionDigits = max;
      } else {
        slots.minimumFractionDigits = fractionDefault;
        slots.maximumFractionDigits = fractionMax;
      }
      const grouping = options.useGrouping;
      slots.useGrouping =
        grouping === undefined || grouping === "auto" || grouping === "true" || grouping === "false"
          ? "auto"
          : typeof grouping === "string" && grouping !== ""
            ? (() => {
                if (grouping !== "always" && grouping !== "min2") throw outOfRange(what, "useGrouping", grouping);
                return grouping;
              })()
            : grouping
              ? "always"
              : false;
      Object.assign(slots, {
        notation,
        signDisplay: getString(what, options, "signDisplay", ["auto", "never", "always", "exceptZero", "negative"], "auto"),
        roundingMode,
        roundingIncrement,
        trailingZeroDisplay,
        roundingPriority,
      });
      internal.set(this, { Class: NumberFormat, slots });
    }
  }
  formatterClass(NumberFormat, numberParts);

  // The integer and fraction digits of |x| (finite) as the slots round
  // them, and whether it rounded to zero.
  function roundedDigits(slots, abs) {
    // A BigInt's digits are its own, every one (a Number holds 2^53).
    let [digits, point] = typeof abs === "bigint" ? [String(abs), String(abs).length] : shortestDigits(abs);
    if (slots.style === "percent") {
      point += 2;
      if (point > digits.length) digits = digits.padEnd(point, "0");
    }
    const significant = slots.maximumSignificantDigits !== undefined;
    const first = digits.search(/[1-9]/);
    const cut = significant ? (first === -1 ? point : first + slots.maximumSignificantDigits) : point + slots.maximumFractionDigits;
    if (cut < digits.length) {
      let kept = digits.slice(0, cut);
      if (digits[cut] >= "5") {
        const more = plusOne(kept);
        if (more.length > kept.length) point += 1;
        kept = more;
      }
      digits = kept;
    }
    if (digits.length < point) digits = digits.padEnd(point, "0");
    // The fraction ends at its last nonzero digit, or later for the
    // least digits shown (a zero's first significant place is its units).
    let last = digits.length;
    while (last > point && digits[last - 1] === "0") last -= 1;
    if (significant) {
      const lead = digits.search(/[1-9]/);
      last = Math.max(last, (lead === -1 ? point - 1 : lead) + slots.minimumSignificantDigits);
    } else {
      last = Math.max(last, point + slots.minimumFractionDigits);
    }
    digits = digits.padEnd(last, "0");
    let integer = digits.slice(0, point).replace(/^0+/, "");
    let fraction = digits.slice(point, last);
    const zero = /^0*$/.test(integer + fraction);
    if (slots.trailingZeroDisplay === "stripIfInteger" && /^0*$/.test(fraction)) fraction = "";
    integer = integer.padStart(slots.minimumIntegerDigits, "0");
    return { integer, fraction, zero };
  }

  const grouped = (slots, integer) => {
    const group = slots.useGrouping;
    if (group === false || integer.length < (group === "min2" ? 5 : 4)) return [integer];
    const groups = [];
    let end = integer.length;
    while (end > 3) {
      groups.unshift(integer.slice(end - 3, end));
      end -= 3;
    }
    groups.unshift(integer.slice(0, end));
    return groups;
  };

  function numberParts(slots, value) {
    let x = typeof value === "bigint" ? value : Number(value);
    const parts = [];
    const negative = typeof x === "bigint" ? x < 0n : x < 0 || Object.is(x, -0);
    let body = [];
    let zero = false;
    if (typeof x !== "bigint" && Number.isNaN(x)) {
      body.push({ type: "nan", value: "NaN" });
    } else if (typeof x !== "bigint" && !Number.isFinite(x)) {
      body.push({ type: "infinity", value: "∞" });
    } else {
      const rounded = roundedDigits(slots, typeof x === "bigint" ? (x < 0n ? -x : x) : Math.abs(x));
      zero = rounded.zero;
      const groups = grouped(slots, rounded.integer || "0");
      groups.forEach((digits, i) => {
        if (i > 0) body.push({ type: "group", value: "," });
        body.push({ type: "integer", value: digits });
      });
      if (rounded.fraction) {
        body.push({ type: "decimal", value: "." }, { type: "fraction", value: rounded.fraction });
      }
    }
    const nan = body[0].type === "nan";
    const sign = nan ? (slots.signDisplay === "always" ? "+" : "") : {
      auto: negative ? "-" : "",
      always: negative ? "-" : "+",
      never: "",
      exceptZero: zero ? "" : negative ? "-" : "+",
      negative: negative && !zero ? "-" : "",
    }[slots.signDisplay];
    if (sign) parts.push({ type: sign === "-" ? "minusSign" : "plusSign", value: sign });
    if (slots.style === "currency") {
      const code = slots.currency;
      const symbol =
        slots.currencyDisplay === "code"
          ? undefined
          : (slots.currencyDisplay === "narrowSymbol" ? NARROW[code] : undefined) ?? SYMBOLS[code];
      // ICU spaces a code from digits, not from NaN or ∞.
      if (symbol === undefined) {
        parts.push({ type: "currency", value: code });
        if (body[0].type === "integer") parts.push({ type: "literal", value: "\u00a0" });
      }
      else parts.push({ type: "currency", value: symbol });
    }
    parts.push(...body);
    if (slots.style === "percent") parts.push({ type: "percentSign", value: "%" });
    return parts;
  }

  // --- DateTimeFormat -----------------------------------------------------

  const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  const MONTHS = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ];
  const COMPONENTS = [
    ["weekday", ["narrow", "short", "long"]],
    ["era", ["narrow", "short", "long"]],
    ["year", ["2-digit", "numeric"]],
    ["month", ["2-digit", "numeric", "narrow", "short", "long"]],
    ["day", ["2-digit", "numeric"]],
    ["dayPeriod", ["narrow", "short", "long"]],
    ["hour", ["2-digit", "numeric"]],
    ["minute", ["2-digit", "numeric"]],
    ["second", ["2-digit", "numeric"]],
    ["fractionalSecondDigits", undefined],
    ["timeZoneName", ["short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"]],
  ];
  const UTC_NAMES = /^(?:UTC|Etc\/UTC|Etc\/GMT|GMT|Etc\/Universal|Universal|Etc\/Zulu|Zulu|Etc\/UCT|UCT)$/i;
  const STYLES = ["full", "long", "medium", "short"];

  class DateTimeFormat {
    // `required` and `defaults` as ECMA-402's ToDateTimeOptions takes
    // them: `toLocaleDateString` asks for a date, `toLocaleTimeString`
    // for a time, the rest for any.
    constructor(locales, options, required = "any", defaults = "date") {
      const what = "DateTimeFormat";
      const locale = resolveLocale(locales);
      options = toOptions(options);
      const slots = { locale, calendar: "gregory", numberingSystem: "latn", timeZone: "UTC" };
      const calendar = getString(what, options, "calendar", undefined, "gregory");
      if (calendar !== "gregory") throw notSimulated(what, "calendar", calendar);
      const hour12 = options.hour12;
      const hourCycle = getString(what, options, "hourCycle", ["h11", "h12", "h23", "h24"], undefined);
      const zone = options.timeZone;
      if (zone !== undefined) {
        const name = String(zone);
        if (!UTC_NAMES.test(name)) {
          if (!/^[A-Za-z_+\-/0-9]+$/.test(name)) throw new RangeError(`Invalid time zone specified: ${name}`);
          throw notSimulated(what, "timeZone", name);
        }
      }
      const chosen = {};
      for (const [name, allowed] of COMPONENTS) {
        if (name === "fractionalSecondDigits") {
          const digits = getNumber(options, name, 1, 3, undefined);
          if (digits !== undefined) chosen[name] = digits;
        } else {
          const value = getString(what, options, name, allowed, undefined);
          if (value !== undefined) chosen[name] = value;
        }
      }
      const dateStyle = getString(what, options, "dateStyle", STYLES, undefined);
      const timeStyle = getString(what, options, "timeStyle", STYLES, undefined);
      if (required === "date" && timeStyle !== undefined) throw new TypeError("Invalid option : timeStyle");
      if (required === "time" && dateStyle !== undefined) throw new TypeError("Invalid option : dateStyle");
      if ((dateStyle !== undefined || timeStyle !== undefined) && Object.keys(chosen).length > 0) {
        const [name] = Object.keys(chosen);
        throw new TypeError(`Can't set option ${name} when ${dateStyle !== undefined ? "dateStyle" : "timeStyle"} is used`);
      }
      for (const name of ["era", "dayPeriod", "fractionalSecondDigits"]) {
        if (chosen[name] !== undefined) throw notSimulated(what, name, chosen[name]);
      }
      if (chosen.timeZoneName !== undefined && chosen.timeZoneName !== "short") {
        throw notSimulated(what, "timeZoneName", chosen.timeZoneName);
      }
      if (dateStyle === undefined && timeStyle === undefined) {
        const hasDate = ["weekday", "year", "month", "day"].some((name) => chosen[name] !== undefined);
        const hasTime = ["hour", "minute", "second"].some((name) => chosen[name] !== undefined);
        const needDefaults = required === "date" ? !hasDate : required === "time" ? !hasTime : !hasDate && !hasTime;
        if (needDefaults && (defaults === "date" || defaults === "all")) {
          Object.assign(chosen, { year: "numeric", month: "numeric", day: "numeric" });
        }
        if (needDefaults && (defaults === "time" || defaults === "all")) {
          Object.assign(chosen, { hour: "numeric", minute: "numeric", second: "numeric" });
        }
      }
      const usesHour = chosen.hour !== undefined || timeStyle !== undefined;
      if (usesHour) {
        // ECMA-402 before 2024, as V8 11.3 has it: `hour12: false` in a
        // locale of 12-hour clocks is h24 (midnight is 24:00).
        const cycle = hour12 !== undefined ? (hour12 ? "h12" : "h24") : (hourCycle ?? "h12");
        slots.hourCycle = cycle;
        slots.hour12 = cycle === "h11" || cycle === "h12";
      }
      // The widths the pattern shows: minutes and seconds beside another
      // time field have two digits, and so do a 24-hour clock's hours.
      if (chosen.minute !== undefined && (chosen.hour !== undefined || chosen.second !== undefined)) chosen.minute = "2-digit";
      if (chosen.second !== undefined && (chosen.hour !== undefined || chosen.minute !== undefined)) chosen.second = "2-digit";
      if (chosen.hour !== undefined && !slots.hour12 && (chosen.minute !== undefined || chosen.second !== undefined)) chosen.hour = "2-digit";
      for (const [name] of COMPONENTS) if (chosen[name] !== undefined) slots[name] = chosen[name];
      if (dateStyle !== undefined) slots.dateStyle = dateStyle;
      if (timeStyle !== undefined) slots.timeStyle = timeStyle;
      internal.set(this, { Class: DateTimeFormat, slots });
    }
  }
  formatterClass(DateTimeFormat, dateParts);


  const STYLE_PARTS = {
    full: { weekday: "long", year: "numeric", month: "long", day: "numeric" },
    long: { year: "numeric", month: "long", day: "numeric" },
    medium: { year: "numeric", month: "short", day: "numeric" },
    short: { year: "2-digit", month: "numeric", day: "numeric" },
  };
  const TIME_STYLE_PARTS = {
    full: { hour: "numeric", minute: "2-digit", second: "2-digit", timeZoneName: "long" },
    long: { hour: "numeric", minute: "2-digit", second: "2-digit", timeZoneName: "short" },
    medium: { hour: "numeric", minute: "2-digit", second: "2-digit" },
    short: { hour: "numeric", minute: "2-digit" },
  };

  function dateParts(slots, date) {
    const time = date === undefined ? Date.now() : Number(date instanceof Date ? date.getTime() : date);
    if (!Number.isFinite(time) || Math.abs(time) > 8.64e15) throw new RangeError("Invalid time value");
    const d = new Date(time);
    const lit = (value) => ({ type: "literal", value });
    const two = (n) => String(n).padStart(2, "0");
    const pick = slots.dateStyle !== undefined || slots.timeStyle !== undefined
      ? Object.assign({}, STYLE_PARTS[slots.dateStyle], TIME_STYLE_PARTS[slots.timeStyle], { hourCycle: slots.hourCycle })
      : slots;
    const year = d.getUTCFullYear();
    const yearText = pick.year === "2-digit" ? two(((year % 100) + 100) % 100) : String(year > 0 ? year : 1 - year);
    const month = d.getUTCMonth();
    const textMonth = pick.month === "long" || pick.month === "short" || pick.month === "narrow";
    const monthText =
      pick.month === "long" ? MONTHS[month]
        : pick.month === "short" ? MONTHS[month].slice(0, 3)
          : pick.month === "narrow" ? MONTHS[month][0]
            : pick.month === "2-digit" ? two(month + 1) : String(month + 1);
    const dayText = pick.day === "2-digit" ? two(d.getUTCDate()) : String(d.getUTCDate());
    const weekday = WEEKDAYS[d.getUTCDay()];
    const weekdayText = pick.weekday === "long" ? weekday : pick.weekday === "short" ? weekday.slice(0, 3) : weekday[0];
    const date_ = [];
    const has = (name) => pick[name] !== undefined;
    if (textMonth) {
      // "Thursday, January 1, 1970", "January 1", "January 1970", "Jan".
      if (has("weekday")) date_.push({ type: "weekday", value: weekdayText }, lit(", "));
      date_.push({ type: "month", value: monthText });
      if (has("day")) date_.push(lit(" "), { type: "day", value: dayText });
      if (has("year")) date_.push(lit(has("day") ? ", " : " "), { type: "year", value: yearText });
    } else if (has("month") || has("day") || has("year")) {
      // "Thu, 1/1/1970", "1/1", "1/1970", "1970".
      if (has("weekday")) date_.push({ type: "weekday", value: weekdayText }, lit(", "));
      const fields = [];
      if (has("month")) fields.push({ type: "month", value: monthText });
      if (has("day")) fields.push({ type: "day", value: dayText });
      if (has("year")) fields.push({ type: "year", value: yearText });
      fields.forEach((field, i) => {
        if (i > 0) date_.push(lit("/"));
        date_.push(field);
      });
    } else if (has("weekday")) {
      date_.push({ type: "weekday", value: weekdayText });
    }
    const clock = [];
    if (has("hour") || has("minute") || has("second")) {
      const hours = d.getUTCHours();
      const cycle = pick.hourCycle ?? "h12";
      const h12 = cycle === "h11" || cycle === "h12";
      const hourValue = { h11: hours % 12, h12: hours % 12 || 12, h23: hours, h24: hours || 24 }[cycle];
      const fields = [];
      if (has("hour")) {
        const padded = pick.hour === "2-digit" || (!h12 && (has("minute") || has("second")));
        fields.push({ type: "hour", value: padded ? two(hourValue) : String(hourValue) });
      }
      if (has("minute")) {
        const alone = !has("hour") && !has("second");
        fields.push({ type: "minute", value: alone && pick.minute === "numeric" ? String(d.getUTCMinutes()) : two(d.getUTCMinutes()) });
      }
      if (has("second")) {
        const alone = !has("hour") && !has("minute");
        fields.push({ type: "second", value: alone && pick.second === "numeric" ? String(d.getUTCSeconds()) : two(d.getUTCSeconds()) });
      }
      fields.forEach((field, i) => {
        if (i > 0) clock.push(lit(":"));
        clock.push(field);
      });
      if (has("hour") && h12) clock.push(lit(" "), { type: "dayPeriod", value: hours < 12 ? "AM" : "PM" });
    }
    if (has("timeZoneName")) {
      const name = pick.timeZoneName === "long" ? "Coordinated Universal Time" : "UTC";
      if (clock.length > 0) clock.push(lit(" "));
      clock.push({ type: "timeZoneName", value: name });
    }
    if (date_.length === 0) return clock;
    if (clock.length === 0) return date_;
    // en's long and full dates join a time with " at ", a weekday alone
    // with a space.
    const joiner = pick.month === "long" ? " at " : date_.length === 1 && has("weekday") ? " " : ", ";
    return [...date_, lit(joiner), ...clock];
  }

  // --- Collator -----------------------------------------------------------

  // CLDR root's order of printable ASCII (Node's `localeCompare`, read off
  // Node 20 with full ICU): each character's primary weight is its group's
  // place; a letter's two cases share one, lower case first.
  const ASCII_ORDER = [
    " ", "_", "-", ",", ";", ":", "!", "?", ".", "'", '"', "(", ")", "[", "]", "{", "}", "@",
    "*", "/", "\\", "&", "#", "%", "`", "^", "+", "<", "=", ">", "|", "~", "$", "0", "1", "2",
    "3", "4", "5", "6", "7", "8", "9", ...Array.from("abcdefghijklmnopqrstuvwxyz", (c) => c + c.toUpperCase()),
  ];
  const PRIMARY = new Map();
  ASCII_ORDER.forEach((group, weight) => {
    for (const c of group) PRIMARY.set(c, weight);
  });
  // The accents (combining marks) CLDR root weighs at the secondary level,
  // in its order (marks in one string weigh the same), read off Node 20:
  // an accented letter sorts with its letter, after it ("e" < "é" < "f"),
  // and the first accent that differs decides between two spellings.
  // U+034F is ignored at every level.
  const ACCENT_ORDER = ["\u0332", "\u0313\u0343", "\u0314", "\u0301\u0341", "\u0300\u0340", "\u0306", "\u0302", "\u030c", "\u030a", "\u0342", "\u0308", "\u0344", "\u030b", "\u0303", "\u0307", "\u0338", "\u0327", "\u0328", "\u0304", "\u030d\u030e\u0312\u0315\u031a\u033d\u033e\u033f\u0346\u034a\u034b\u034c\u0350\u0351\u0352\u0357\u035b\u035d\u035e", "\u0316\u0317\u0318\u0319\u031c\u031d\u031e\u031f\u0320\u0329\u032a\u032b\u032c\u032f\u0333\u033a\u033b\u033c\u0347\u0348\u0349\u034d\u034e\u0353\u0354\u0355\u0356\u0359\u035a\u035c\u035f\u0362", "\u0336\u0337", "\u0335", "\u0305", "\u0309", "\u030f", "\u0310", "\u0311", "\u031b", "\u0321", "\u0322", "\u0323", "\u0324", "\u0325", "\u0326", "\u032d", "\u032e", "\u0330", "\u0331", "\u0334", "\u0339", "\u0345", "\u0358", "\u0360", "\u0361"];
  const SECONDARY = new Map();
  ACCENT_ORDER.forEach((group, weight) => {
    for (const mark of group) SECONDARY.set(mark, weight + 1);
  });
  const IGNORED = "\u034f";

  // A string's collation elements at three levels, one list per level
  // (primary: the letter; secondary: 0 for a letter, the accent's weight;
  // tertiary: 1 for upper case), or undefined when it holds a character
  // the table lacks.
  function collationKey(text) {
    const primary = [];
    const secondary = [];
    const tertiary = [];
    for (const c of text.normalize("NFD")) {
      if (c === IGNORED) continue;
      const weight = PRIMARY.get(c);
      if (weight !== undefined) {
        primary.push(weight);
        secondary.push(0);
        tertiary.push(c >= "A" && c <= "Z" ? 1 : 0);
        continue;
      }
      const accent = SECONDARY.get(c);
      if (accent === undefined) return undefined;
      secondary.push(accent);
      tertiary.push(0);
    }
    return [primary, secondary, tertiary];
  }
  const compareLists = (a, b) => {
    const length = Math.min(a.length, b.length);
    for (let i = 0; i < length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
  };
  const LEVELS = { base: 1, accent: 2, variant: 3 };

  // -1, 0 or 1, as ICU's root collator orders two strings of printable
  // ASCII and accented Latin letters at strength `sensitivity`; code
  // units beyond those.
  function compareText(a, b, sensitivity = "variant") {
    const keyA = collationKey(a);
    const keyB = collationKey(b);
    if (keyA === undefined || keyB === undefined) return a < b ? -1 : a > b ? 1 : 0;
    for (let level = 0; level < LEVELS[sensitivity]; level++) {
      const order = compareLists(keyA[level], keyB[level]);
      if (order !== 0) return order;
    }
    return 0;
  }

  class Collator {
    constructor(locales, options) {
      const what = "Collator";
      const locale = resolveLocale(locales);
      options = toOptions(options);
      const usage = getString(what, options, "usage", ["sort", "search"], "sort");
      const sensitivity = getString(what, options, "sensitivity", ["base", "accent", "case", "variant"], "variant");
      const ignorePunctuation = Boolean(options.ignorePunctuation);
      const numeric = Boolean(options.numeric);
      const caseFirst = getString(what, options, "caseFirst", ["upper", "lower", "false"], "false");
      if (ignorePunctuation) throw notSimulated(what, "ignorePunctuation", true);
      if (numeric) throw notSimulated(what, "numeric", true);
      if (caseFirst !== "false") throw notSimulated(what, "caseFirst", caseFirst);
      if (sensitivity === "case") throw notSimulated(what, "sensitivity", sensitivity);
      const slots = { locale, usage, sensitivity, ignorePunctuation, collation: "default", numeric, caseFirst };
      internal.set(this, { Class: Collator, slots });
    }
  }
  intlClass(Collator, "compare", (slots, a, b) => compareText(String(a), String(b), slots.sensitivity));

  // --- PluralRules --------------------------------------------------------

  class PluralRules {
    constructor(locales, options) {
      const locale = resolveLocale(locales);
      options = toOptions(options);
      const type = getString("PluralRules", options, "type", ["cardinal", "ordinal"], "cardinal");
      const format = new NumberFormat("en-US", Object.assign({}, options, { style: "decimal", useGrouping: false }));
      const number = format.resolvedOptions();
      delete number.style;
      const slots = Object.assign({ locale, type }, number, {
        pluralCategories: type === "cardinal" ? ["one", "other"] : ["few", "one", "two", "other"],
      });
      hidden(slots, "format", format);
      internal.set(this, { Class: PluralRules, slots });
    }
    select(value) {
      const slots = slotsOf(this, PluralRules, "select");
      const text = slots.format.format(Math.abs(Number(value)));
      if (slots.type === "cardinal") return text === "1" ? "one" : "other";
      if (text.includes(".")) return "other";
      const n = Number(text);
      if (n % 10 === 1 && n % 100 !== 11) return "one";
      if (n % 10 === 2 && n % 100 !== 12) return "two";
      if (n % 10 === 3 && n % 100 !== 13) return "few";
      return "other";
    }
  }
  intlClass(PluralRules);

  // A constructor that may be called without `new`, as Intl's are
  // (`Intl.NumberFormat("en-US")`).
  const callable = (Class) => {
    const constructor = function (locales, options) {
      return Reflect.construct(Class, [locales, options], new.target ?? constructor);
    };
    Object.defineProperty(constructor, "name", { value: Class.name });
    standIns.add(constructor);
    constructor.prototype = Class.prototype;
    Object.defineProperty(Class.prototype, "constructor", { value: constructor, writable: true, configurable: true });
    constructor.supportedLocalesOf = Class.supportedLocalesOf;
    return constructor;
  };
  const Intl = {};
  for (const Class of [NumberFormat, DateTimeFormat, Collator, PluralRules]) {
    Object.defineProperty(Intl, Class.name, { value: callable(Class), writable: true, configurable: true });
  }
  Object.defineProperty(Intl, "getCanonicalLocales", {
    value: function getCanonicalLocales(locales) {
      return localeList(locales);
    },
    writable: true,
    configurable: true,
  });
  Object.defineProperty(Intl, Symbol.toStringTag, { value: "Intl", configurable: true });
  return {
    Intl,
    compareText,
    // `toLocaleString` and its kin with a locale or options.
    formatNumber: (value, locales, options) => new NumberFormat(locales, options).format(value),
    formatDate: (date, locales, options, required, defaults) =>
      new DateTimeFormat(locales, options, required, defaults).format(date),
    compare: (a, b, locales, options) => new Collator(locales, options).compare(a, b),
  };
});
