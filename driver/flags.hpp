// MIOpenDriver's command line for conv / convfp16 / convbfp16: every flag of
// MIOpen's own conv driver (long name, short name, default), parsed the way
// MIOpen's driver parses it (`--long value` or `-s value`, a later flag
// overrides an earlier one). Unlike MIOpen's driver, an unknown flag, a
// missing value or a value this driver cannot honour is an error naming it.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace driver {

struct Flag
{
    std::string long_name;
    char short_name;
    std::string value; // the default until the command line sets it
    std::string help;
    // Values this driver honours; empty = any value of the flag's kind. A
    // value outside the list is an error that names the flag and the value.
    std::vector<std::string> supported;
    std::string why_unsupported; // said with such an error
    bool given = false;
};

class Flags
{
public:
    Flags();
    // Parses argv[2..]; on error returns false with `error` saying what.
    bool parse(int argc, char** argv, std::string& error);
    bool help_requested() const { return help_; }
    void print_help() const;

    const std::string& str(const std::string& long_name) const;
    int integer(const std::string& long_name) const;
    bool given(const std::string& long_name) const;

private:
    Flag* find_long(const std::string& name);
    Flag* find_short(char name);
    bool store(Flag& f, const std::string& value, std::string& error);

    std::vector<Flag> flags_;
    bool help_ = false;
};

} // namespace driver
