package javac

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// pom is the part of a Maven project model the oracle reads.
type pom struct {
	XMLName      xml.Name `xml:"project"`
	GroupID      string   `xml:"groupId"`
	ArtifactID   string   `xml:"artifactId"`
	Version      string   `xml:"version"`
	Packaging    string   `xml:"packaging"`
	Parent       *pomRef  `xml:"parent"`
	Modules      []string `xml:"modules>module"`
	Properties   pomProps `xml:"properties"`
	Dependencies []pomDep `xml:"dependencies>dependency"`
	Managed      []pomDep `xml:"dependencyManagement>dependencies>dependency"`
	Build        struct {
		SourceDirectory     string      `xml:"sourceDirectory"`
		TestSourceDirectory string      `xml:"testSourceDirectory"`
		Plugins             []pomPlugin `xml:"plugins>plugin"`
		Managed             []pomPlugin `xml:"pluginManagement>plugins>plugin"`
	} `xml:"build"`
}

type pomRef struct {
	GroupID      string  `xml:"groupId"`
	ArtifactID   string  `xml:"artifactId"`
	Version      string  `xml:"version"`
	RelativePath *string `xml:"relativePath"`
}

type pomDep struct {
	GroupID    string `xml:"groupId"`
	ArtifactID string `xml:"artifactId"`
	Version    string `xml:"version"`
	Type       string `xml:"type"`
	Classifier string `xml:"classifier"`
	Scope      string `xml:"scope"`
	Optional   string `xml:"optional"`
	SystemPath string `xml:"systemPath"`
	Exclusions []struct {
		GroupID    string `xml:"groupId"`
		ArtifactID string `xml:"artifactId"`
	} `xml:"exclusions>exclusion"`
}

type pomPlugin struct {
	GroupID    string         `xml:"groupId"`
	ArtifactID string         `xml:"artifactId"`
	Config     compilerConfig `xml:"configuration"`
	Executions []pomExecution `xml:"executions>execution"`
}

type pomExecution struct {
	ID     string         `xml:"id"`
	Config compilerConfig `xml:"configuration"`
}

// compilerConfig is maven-compiler-plugin's configuration.
type compilerConfig struct {
	Release      string   `xml:"release"`
	Source       string   `xml:"source"`
	TestRelease  string   `xml:"testRelease"`
	TestSource   string   `xml:"testSource"`
	Encoding     string   `xml:"encoding"`
	Excludes     []string `xml:"excludes>exclude"`
	TestExcludes []string `xml:"testExcludes>exclude"`
}

// pomProps reads <properties> as a map: its elements are the keys.
type pomProps map[string]string

func (p *pomProps) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	m := pomProps{}
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			var v string
			if err := d.DecodeElement(&v, &t); err != nil {
				return err
			}
			m[t.Name.Local] = strings.TrimSpace(v)
		case xml.EndElement:
			*p = m
			return nil
		}
	}
}

// model is a pom with its parents applied: the properties and the
// managed versions it sees, resolved as far as the parents are present
// (in the repository, by relativePath, or in the local Maven repository).
type model struct {
	pom    *pom
	dir    string // the pom's folder
	props  map[string]string
	manage map[string]pomDep // "group:artifact" -> managed dependency
	// notes says what could not be read (a parent that is not present).
	notes []string
}

// readPom parses one pom.xml.
func readPom(path string) (*pom, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var p pom
	if err := xml.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%s: not a Maven pom: %v", path, err)
	}
	for i := range p.Modules {
		p.Modules[i] = strings.TrimSpace(p.Modules[i])
	}
	return &p, nil
}

func (p *pom) group() string {
	if p.GroupID == "" && p.Parent != nil {
		return strings.TrimSpace(p.Parent.GroupID)
	}
	return strings.TrimSpace(p.GroupID)
}

func (p *pom) version() string {
	if p.Version == "" && p.Parent != nil {
		return strings.TrimSpace(p.Parent.Version)
	}
	return strings.TrimSpace(p.Version)
}

// maxParents bounds a parent chain (a cycle in broken poms).
const maxParents = 20

// loadModel reads the pom at path and its parent chain; r finds the
// poms that are not in the work tree.
func loadModel(path string, r *Resolver) (*model, error) {
	p, err := readPom(path)
	if err != nil {
		return nil, err
	}
	chain := []*pom{p}
	var notes []string
	dir := filepath.Dir(path)
	for cur, curDir := p, dir; cur.Parent != nil && len(chain) < maxParents; {
		pp, ppDir := findParent(cur, curDir, r)
		if pp == nil {
			ref := cur.Parent
			notes = append(notes, fmt.Sprintf("parent pom %s:%s:%s is not present", strings.TrimSpace(ref.GroupID), strings.TrimSpace(ref.ArtifactID), strings.TrimSpace(ref.Version)))
			break
		}
		chain = append(chain, pp)
		cur, curDir = pp, ppDir
	}
	m := &model{pom: p, dir: dir, props: map[string]string{}, manage: map[string]pomDep{}, notes: notes}
	// the farthest parent first, so that nearer poms override
	for i := len(chain) - 1; i >= 0; i-- {
		for k, v := range chain[i].Properties {
			m.props[k] = v
		}
	}
	m.props["project.groupId"] = p.group()
	m.props["project.artifactId"] = strings.TrimSpace(p.ArtifactID)
	m.props["project.version"] = p.version()
	m.props["project.basedir"] = dir
	m.props["basedir"] = dir
	m.props["project.build.directory"] = filepath.Join(dir, "target")
	if p.Parent != nil {
		m.props["project.parent.version"] = strings.TrimSpace(p.Parent.Version)
		m.props["project.parent.groupId"] = strings.TrimSpace(p.Parent.GroupID)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		for _, d := range chain[i].Managed {
			m.addManaged(d, r, 0)
		}
	}
	return m, nil
}

// addManaged records a managed dependency; a BOM (scope import) is read
// from the local repository and its managed dependencies added.
func (m *model) addManaged(d pomDep, r *Resolver, depth int) {
	d = m.subst(d)
	if d.Scope == "import" {
		if depth > maxParents {
			return
		}
		path := r.file(d.GroupID, d.ArtifactID, d.Version, "", "pom")
		var bom *model
		var err error = os.ErrNotExist
		if path != "" {
			bom, err = loadModel(path, r)
		}
		if err != nil {
			m.notes = append(m.notes, fmt.Sprintf("BOM %s:%s:%s is not present", d.GroupID, d.ArtifactID, d.Version))
			return
		}
		for _, bd := range bom.pom.Managed {
			bd = bom.subst(bd)
			if _, ok := m.manage[key(bd)]; !ok {
				m.addManaged(bd, r, depth+1)
			}
		}
		return
	}
	m.manage[key(d)] = d
}

// findParent reads the parent of p (whose folder is dir): by
// relativePath (default ../pom.xml) when that pom is the parent, else
// from the local repository.
func findParent(p *pom, dir string, r *Resolver) (*pom, string) {
	ref := p.Parent
	rel := "../pom.xml"
	if ref.RelativePath != nil {
		rel = strings.TrimSpace(*ref.RelativePath)
	}
	if rel != "" {
		cand := filepath.Join(dir, filepath.FromSlash(rel))
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			cand = filepath.Join(cand, "pom.xml")
		}
		if pp, err := readPom(cand); err == nil && strings.TrimSpace(pp.ArtifactID) == strings.TrimSpace(ref.ArtifactID) && pp.group() == strings.TrimSpace(ref.GroupID) {
			return pp, filepath.Dir(cand)
		}
	}
	path := r.file(strings.TrimSpace(ref.GroupID), strings.TrimSpace(ref.ArtifactID), strings.TrimSpace(ref.Version), "", "pom")
	if path == "" {
		return nil, ""
	}
	if pp, err := readPom(path); err == nil {
		return pp, filepath.Dir(path)
	}
	return nil, ""
}

func key(d pomDep) string { return d.GroupID + ":" + d.ArtifactID }

var propRE = regexp.MustCompile(`\$\{([^}]+)\}`)

// expand substitutes ${property} references (repeatedly, for properties
// defined by other properties); an unknown one is left as it is.
func (m *model) expand(s string) string {
	s = strings.TrimSpace(s)
	for range 5 {
		if !strings.Contains(s, "${") {
			break
		}
		s = propRE.ReplaceAllStringFunc(s, func(ref string) string {
			name := ref[2 : len(ref)-1]
			if v, ok := m.props[name]; ok {
				return v
			}
			if v, ok := os.LookupEnv(strings.TrimPrefix(name, "env.")); ok && strings.HasPrefix(name, "env.") {
				return v
			}
			return ref
		})
	}
	return s
}

func (m *model) subst(d pomDep) pomDep {
	d.GroupID = m.expand(d.GroupID)
	d.ArtifactID = m.expand(d.ArtifactID)
	d.Version = m.expand(d.Version)
	d.Scope = m.expand(d.Scope)
	d.Type = m.expand(d.Type)
	d.Classifier = m.expand(d.Classifier)
	d.SystemPath = m.expand(d.SystemPath)
	d.Optional = m.expand(d.Optional)
	return d
}

// compiler is the maven-compiler-plugin settings the build sees: the
// plugin's configuration (its default executions' included) over the
// maven.compiler.* properties.
func (m *model) compiler() compilerConfig {
	var c compilerConfig
	set := func(dst *string, v string) {
		if v = m.expand(v); *dst == "" && v != "" && !strings.Contains(v, "${") {
			*dst = v
		}
	}
	for _, pl := range append(append([]pomPlugin{}, m.pom.Build.Plugins...), m.pom.Build.Managed...) {
		if strings.TrimSpace(pl.ArtifactID) != "maven-compiler-plugin" {
			continue
		}
		cfgs := []compilerConfig{pl.Config}
		for _, ex := range pl.Executions {
			if id := strings.TrimSpace(ex.ID); id == "" || strings.HasPrefix(id, "default-") {
				cfgs = append(cfgs, ex.Config)
			}
		}
		for _, cf := range cfgs {
			set(&c.Release, cf.Release)
			set(&c.Source, cf.Source)
			set(&c.TestRelease, cf.TestRelease)
			set(&c.TestSource, cf.TestSource)
			set(&c.Encoding, cf.Encoding)
			for _, e := range cf.Excludes {
				c.Excludes = append(c.Excludes, m.expand(e))
			}
			for _, e := range cf.TestExcludes {
				c.TestExcludes = append(c.TestExcludes, m.expand(e))
			}
		}
	}
	set(&c.Release, m.props["maven.compiler.release"])
	set(&c.Source, m.props["maven.compiler.source"])
	set(&c.TestRelease, m.props["maven.compiler.testRelease"])
	set(&c.TestSource, m.props["maven.compiler.testSource"])
	set(&c.Encoding, m.props["project.build.sourceEncoding"])
	if c.TestRelease == "" && c.TestSource == "" {
		c.TestRelease, c.TestSource = c.Release, c.Source
	}
	return c
}
