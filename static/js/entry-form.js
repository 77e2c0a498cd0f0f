/* The table link's form for the next deal, made on the phone (used by entry.js).
 *
 * While deals wait to be sent the office cannot send the next form, so it is made here
 * from the form on the page: a new client id, the deal's number, who deals and who plays
 * (3.2.1, 3.2.7: at a table of four the dealer sits out). That is seating, as
 * scoring/sheet.py's dealer_seat and active_seats, computed from the table's size; the
 * value of a deal is the office's alone (scoring/rules.py), so nothing here values one.
 * Its words come from the page: the form's own labels and #connection's data attributes.
 *
 * window.TableLinkForm({text, players, size, deals}) gives the functions entry.js uses.
 */
(function () {
  "use strict";

  function remove(element) {
    element.parentNode.removeChild(element);
  }

  function format(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (all, name) { return values[name]; });
  }

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = crypto.getRandomValues(new Uint8Array(16)); // plain HTTP: no randomUUID
    bytes[6] = (bytes[6] & 15) | 64;
    bytes[8] = (bytes[8] & 63) | 128;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function labelOf(input) {
    var label = input.closest("label");
    return label ? label.textContent.trim() : input.value;
  }

  window.TableLinkForm = function (table) {
    var text = table.text;
    var players = table.players;
    var size = table.size;

    function entrySection(sheet) {
      return (sheet || document.getElementById("sheet")).querySelector("section.entry");
    }

    function formOf(section) {
      return section ? section.querySelector("form[data-queue]") : null;
    }

    function numberOf(section) {
      var form = formOf(section);
      return form ? parseInt(form.elements.number.value, 10) : null;
    }

    function dealerSeat(number) {
      return ((number - 1) % size) + 1;
    }

    function activeSeats(number) {
      var seats = [];
      for (var seat = 1; seat <= size; seat += 1) if (size === 3 || seat !== dealerSeat(number)) seats.push(seat);
      return seats;
    }

    function previewSays(section, words) {
      var box = section.querySelector("#preview");
      var line = document.createElement("p");
      line.className = "muted";
      line.textContent = words;
      box.textContent = "";
      box.appendChild(line);
    }

    function heading(section, number) {
      var title = section.querySelector("h2");
      title.textContent = format(text.deal, { number: number }) + " ";
      var note = document.createElement("small");
      note.className = "muted";
      note.textContent = "· " + format(text.dealer, { dealer: players[dealerSeat(number) - 1] }) +
        (size === 4 ? " " + text.sitsOut : "");
      title.appendChild(note);
    }

    /* The declarer's pills: the seats that play this deal (the markup of forms.PlainRadioSelect). */
    function declarers(section, number) {
      var pills = section.querySelector("#id_declarer_seat");
      pills.textContent = "";
      activeSeats(number).forEach(function (seat, index) {
        var input = document.createElement("input");
        input.type = "radio";
        input.name = "declarer_seat";
        input.value = seat;
        input.id = "id_declarer_seat_" + index;
        var label = document.createElement("label");
        label.htmlFor = input.id;
        label.appendChild(input);
        label.appendChild(document.createTextNode(" " + players[seat - 1]));
        var wrapper = document.createElement("div");
        wrapper.appendChild(label);
        pills.appendChild(wrapper);
      });
    }

    function blank(section, number, offline) {
      var form = formOf(section);
      form.elements.number.value = number;
      form.elements.client_id.value = uuid();
      if (form.elements.version) form.elements.version.value = "";
      section.querySelectorAll(".errorlist, p.rule").forEach(remove);
      heading(section, number);
      declarers(section, number);
      Array.prototype.forEach.call(form.elements, function (field) {
        field.removeAttribute("aria-invalid");
        if (field.type === "radio") {
          field.checked = field.defaultChecked = field.name === "tops_kind" && field.value === text.topsKind;
        } else if (field.type === "checkbox") {
          field.checked = field.defaultChecked = false;
        } else if (field.type === "number" || field.type === "text") {
          field.value = field.defaultValue = "";
        } else if (field.tagName === "SELECT") {
          field.selectedIndex = 0;
        }
      });
      previewSays(section, offline ? text.valued : text.preview);
    }

    /* The page's form asks for deal ``number`` (made from the form there, if need be). */
    function show(number, offline) {
      var section = entrySection();
      if (!formOf(section)) return; // no form: the sheet is closed, confirmed or complete
      if (number > table.deals) {
        remove(section); // every deal of the series is entered (some wait to be sent)
        return;
      }
      if (numberOf(section) === number && !section.querySelector(".errorlist")) return;
      var fresh = section.cloneNode(true);
      blank(fresh, number, offline);
      section.parentNode.replaceChild(fresh, section);
      window.htmx.process(fresh);
    }

    /* What the waiting row shows: the chosen pills and numbers, in the form's own words. */
    function describe(form, passed) {
      if (passed) return { passed: form.querySelector("button.passed").textContent.trim() };
      function chosen(name) { return form.querySelector("input[name=" + name + "]:checked"); }
      var declarer = chosen("declarer_seat");
      var contract = chosen("contract");
      var kind = chosen("tops_kind");
      var parts = [];
      if (contract) parts.push(labelOf(contract));
      if (kind && form.elements.tops.value) parts.push(labelOf(kind) + " " + form.elements.tops.value);
      form.querySelectorAll(".flags input:checked").forEach(function (flag) { parts.push(labelOf(flag)); });
      return { declarer: declarer ? labelOf(declarer) : "", game: parts.join(" ") };
    }

    return {
      entrySection: entrySection,
      formOf: formOf,
      numberOf: numberOf,
      previewSays: previewSays,
      show: show,
      describe: describe,
    };
  };
})();
