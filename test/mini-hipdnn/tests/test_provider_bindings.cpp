// RFC 0001 §4.5 for the MIOpen provider plugin, checked with the dynamic
// loader's own trace: runs the provider comparison test (single convolutions
// and fused conv -> bias -> activation graphs) under
//     LD_DEBUG=files,bindings LD_DEBUG_OUTPUT=<dir>/ld LD_BIND_NOW=1
// and asserts that
//  * nothing binds into the public libMIOpen.so and it is never loaded;
//  * every miopen* reference of libmini_hipdnn_miopen_provider.so is an `_impl`
//    name bound in libMIOpen_private.so, and all of the plugin's undefined
//    miopen* symbols (read from its .dynsym) were bound that way;
//  * the fusion entry points were among them.
#include <gtest/gtest.h>

#include <dirent.h>
#include <elf.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace
{

std::string baseName(const std::string& p)
{
    auto s = p.find_last_of('/');
    return s == std::string::npos ? p : p.substr(s + 1);
}

bool startsWith(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }
bool endsWith(const std::string& s, const std::string& p)
{
    return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

// Undefined (imported) symbols of an ELF64 shared object whose name starts with prefix.
std::set<std::string> undefinedSymbols(const std::string& path, const std::string& prefix)
{
    std::ifstream f(path, std::ios::binary);
    std::vector<char> img((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::set<std::string> out;
    if(img.size() < sizeof(Elf64_Ehdr) || std::memcmp(img.data(), ELFMAG, SELFMAG) != 0
       || img[EI_CLASS] != ELFCLASS64)
    {
        ADD_FAILURE() << path << " is not an ELF64 file";
        return out;
    }
    Elf64_Ehdr eh;
    std::memcpy(&eh, img.data(), sizeof eh);
    std::vector<Elf64_Shdr> sh(eh.e_shnum);
    for(size_t i = 0; i < sh.size(); ++i)
    {
        std::memcpy(&sh[i], img.data() + eh.e_shoff + i * eh.e_shentsize, sizeof(Elf64_Shdr));
    }
    for(const auto& s : sh)
    {
        if(s.sh_type != SHT_DYNSYM)
        {
            continue;
        }
        const auto& strtab = sh.at(s.sh_link);
        for(size_t off = 0; off + sizeof(Elf64_Sym) <= s.sh_size; off += sizeof(Elf64_Sym))
        {
            Elf64_Sym sym;
            std::memcpy(&sym, img.data() + s.sh_offset + off, sizeof sym);
            if(sym.st_shndx != SHN_UNDEF || sym.st_name == 0)
            {
                continue;
            }
            std::string name(img.data() + strtab.sh_offset + sym.st_name);
            if(startsWith(name, prefix))
            {
                out.insert(name);
            }
        }
    }
    return out;
}

int runWithEnv(const std::vector<std::string>& argv, const std::vector<std::string>& extraEnv)
{
    std::vector<std::string> env;
    for(char** e = environ; *e != nullptr; ++e)
    {
        std::string kv = *e;
        bool overridden = false;
        for(const auto& x : extraEnv)
        {
            overridden = overridden || startsWith(kv, x.substr(0, x.find('=') + 1));
        }
        if(!overridden)
        {
            env.push_back(kv);
        }
    }
    env.insert(env.end(), extraEnv.begin(), extraEnv.end());
    std::vector<char*> a, e;
    for(const auto& s : argv)
    {
        a.push_back(const_cast<char*>(s.c_str()));
    }
    a.push_back(nullptr);
    for(const auto& s : env)
    {
        e.push_back(const_cast<char*>(s.c_str()));
    }
    e.push_back(nullptr);
    pid_t pid = fork();
    if(pid == 0)
    {
        execve(a[0], a.data(), e.data());
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

TEST(ProviderBindings, OnlyImplSymbolsOfMiopenPrivate)
{
    char dirTemplate[] = "/tmp/mini_hipdnn_lddebug_XXXXXX";
    ASSERT_NE(mkdtemp(dirTemplate), nullptr);
    const std::string dir = dirTemplate;
    const std::string plugin = baseName(MINI_HIPDNN_PROVIDER_PLUGIN_FILE);

    int rc = runWithEnv({MINI_HIPDNN_BINDINGS_CHILD,
                         "--gtest_filter=ProviderVsReference.ConvBias*:ProviderVsReference.ConvRelu*:"
                         "Seeded/RandomGraphs.ProviderMatchesReference/0:Seeded/RandomGraphs.ProviderMatchesReference/1:"
                         "Seeded/RandomGraphs.ProviderMatchesReference/2:Seeded/RandomGraphs.ProviderMatchesReference/3"},
                        {"LD_DEBUG=files,bindings", "LD_DEBUG_OUTPUT=" + dir + "/ld", "LD_BIND_NOW=1"});
    ASSERT_EQ(rc, 0) << "the provider test failed under LD_DEBUG";

    std::vector<std::string> lines;
    if(DIR* d = opendir(dir.c_str()))
    {
        while(dirent* ent = readdir(d))
        {
            std::string n = ent->d_name;
            if(startsWith(n, "ld."))
            {
                std::ifstream f(dir + "/" + n);
                for(std::string l; std::getline(f, l);)
                {
                    lines.push_back(l);
                }
                std::remove((dir + "/" + n).c_str());
            }
        }
        closedir(d);
    }
    rmdir(dir.c_str());
    ASSERT_FALSE(lines.empty()) << "no LD_DEBUG output";

    static const std::regex binding(R"(binding file (\S+) \[\d+\] to (\S+) \[\d+\]: normal symbol `([^']+)')");
    static const std::regex fileLine(R"(file=(\S+) \[\d+\];)");
    std::set<std::string> implBound, loaded;
    size_t bindings = 0;
    bool pluginLoaded = false;
    for(const auto& l : lines)
    {
        std::smatch m;
        if(std::regex_search(l, m, fileLine))
        {
            loaded.insert(baseName(m[1]));
            pluginLoaded = pluginLoaded || baseName(m[1]) == plugin;
        }
        if(!std::regex_search(l, m, binding))
        {
            continue;
        }
        ++bindings;
        std::string src = baseName(m[1]), dst = baseName(m[2]), sym = m[3];
        EXPECT_FALSE(startsWith(dst, "libMIOpen.so")) << src << ": " << sym << " bound into the public " << m[2];
        if(src == plugin && startsWith(sym, "miopen"))
        {
            EXPECT_TRUE(endsWith(sym, "_impl")) << "the provider references the public name " << sym;
            EXPECT_TRUE(startsWith(dst, "libMIOpen_private.so")) << sym << " bound in " << m[2];
            if(endsWith(sym, "_impl") && startsWith(dst, "libMIOpen_private.so"))
            {
                implBound.insert(sym);
            }
        }
    }
    std::printf("[bindings] %zu bindings traced, %zu miopen*_impl symbols of the provider bound in "
                "libMIOpen_private.so\n",
                bindings, implBound.size());
    EXPECT_GT(bindings, 100u) << "implausibly few bindings traced";
    EXPECT_TRUE(pluginLoaded) << plugin << " was never loaded";
    EXPECT_TRUE(loaded.count("libMIOpen_private.so.1") == 1 || loaded.count("libMIOpen_private.so") == 1)
        << "libMIOpen_private.so was not loaded";
    for(const auto& f : loaded)
    {
        EXPECT_FALSE(startsWith(f, "libMIOpen.so")) << "the public library was loaded: " << f;
    }

    // LD_BIND_NOW: every import of the plugin is bound at dlopen, so the set of
    // bound miopen* names must be exactly the plugin's undefined miopen* symbols.
    auto imports = undefinedSymbols(MINI_HIPDNN_PROVIDER_PLUGIN_FILE, "miopen");
    EXPECT_GE(imports.size(), 20u);
    EXPECT_EQ(implBound, imports);
    for(const char* s : {"miopenCreateFusionPlan_impl", "miopenCreateOpConvForward_impl",
                         "miopenCreateOpBiasForward_impl", "miopenCreateOpActivationForward_impl",
                         "miopenCompileFusionPlan_impl", "miopenSetOpArgsActivForward_impl",
                         "miopenExecuteFusionPlan_v2_impl", "miopenFindConvolutionForwardAlgorithm_impl",
                         "miopenConvolutionBackwardWeights_impl"})
    {
        EXPECT_EQ(implBound.count(s), 1u) << s << " not bound in libMIOpen_private.so";
    }
}

} // namespace
