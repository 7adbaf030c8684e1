"""make_xla_example.py: writes samples/xla-counterexample.json, the 7-op graph of XLA's
comment on its List scheduler (xla/service/hlo_memory_scheduler.cc) in memtris's shape: per op
an ALLOC of its output (1 or 2 MiB), the op, and a FREE after its last reader.
Run: python3 tools/make_xla_example.py > samples/xla-counterexample.json"""
import json
M=1<<20
ops=[('A',[],1),('B',['A'],2),('C',['B'],1),('D',['A'],1),('E',['A'],1),('F',['D','E'],2),('G',['C','F'],1)]
nodes=[];edges=[];nid=0;alloc={};comp={};buf={}
readers={o:[] for o,_,_ in ops}
for o,ins,_ in ops:
    for i in ins: readers[i].append(o)
for bi,(o,ins,sz) in enumerate(ops):
    a=nid;nid+=1;nodes.append({"Id":a,"Op":"ALLOC","Size":sz*M,"BufId":bi+1,"Name":o+".out"})
    c=nid;nid+=1;nodes.append({"Id":c,"Op":"Op"+o,"Name":o,"Inputs":[ops.index(next(x for x in ops if x[0]==i))+1 for i in ins]+[bi+1]})
    alloc[o]=a;comp[o]=c;buf[o]=bi+1
    for i in ins: edges.append([comp[i],a]); edges.append([comp[i],c])
    edges.append([a,c])
for o,ins,sz in ops:
    f=nid;nid+=1;nodes.append({"Id":f,"Op":"FREE","BufId":buf[o],"Name":"free "+o})
    rs=readers[o] or [o]
    for r in rs: edges.append([comp[r],f])
print(json.dumps({"Nodes":nodes,"Edges":edges}))
